import { z } from 'zod';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField, textOutput } from '../shared/fields';

export const TEXT_OPERATIONS = ['uppercase', 'lowercase', 'trim_spaces', 'replace', 'split', 'concatenate'] as const;

/** The extra field each operation needs. */
const OPERATION_FIELD = { replace: 'find', split: 'delimiter', concatenate: 'append' } as const;

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z
    .object({
      input: kit.template(textSource('Input Text')),
      operation: z.enum(TEXT_OPERATIONS).meta({ title: 'Operation' }),
      // `shownWhen`: the Workshop shows the field only for these operations.
      find: kit.template(textSource('Find')).optional().meta({ shownWhen: { operation: ['replace'] } }),
      replacement: kit.template(textSource('Replace with')).optional().meta({ shownWhen: { operation: ['replace'] } }),
      delimiter: kit.template(textSource('Delimiter')).optional().meta({ shownWhen: { operation: ['split'] } }),
      append: kit.template(textSource('Text to append')).optional().meta({ shownWhen: { operation: ['concatenate'] } }),
      ref: refField(),
    })
    .superRefine((value, context) => {
      const field = OPERATION_FIELD[value.operation as keyof typeof OPERATION_FIELD] as keyof typeof value | undefined;
      if (field !== undefined && value[field] === undefined) {
        context.addIssue({ code: 'custom', path: [field], message: `is required for ${value.operation}`, params: { code: 'required_field' } });
      }
    });
type ManipulateTextConfig = z.output<ReturnType<typeof config<'compiled'>>>;

const WHITESPACE = /\s+/g;

export const manipulateTextBlock = defineBlock<ManipulateTextConfig>({
  type: 'manipulate_text',
  label: 'Manipulate Text',
  category: 'text',
  description: 'Uppercase, lowercase, remove spaces, replace, split into a list or append text.',
  config,
  flow: 'next',
  outputs: ({ ref, operation }) => (operation === 'split' ? [{ name: ref, fields: null, readableByName: false }] : textOutput(ref)),
  prepare: (config, context) => {
    const slot = context.variable(config.ref);
    const input = context.text(config.input);
    const optional = (field: 'find' | 'replacement' | 'delimiter' | 'append') => {
      const ast = config[field];
      return ast === undefined ? () => '' : context.text(ast);
    };
    switch (config.operation) {
      case 'uppercase':
        return (run) => {
          run.vars[slot] = input(run).toUpperCase();
        };
      case 'lowercase':
        return (run) => {
          run.vars[slot] = input(run).toLowerCase();
        };
      case 'trim_spaces':
        return (run) => {
          run.vars[slot] = input(run).replace(WHITESPACE, '');
        };
      case 'replace': {
        const find = optional('find');
        const replacement = optional('replacement');
        return (run) => {
          const text = input(run);
          const target = find(run);
          // Plain text on both sides: no pattern syntax, no `$&` in the replacement.
          run.vars[slot] = target === '' ? text : text.split(target).join(replacement(run));
        };
      }
      case 'split': {
        const delimiter = optional('delimiter');
        return (run) => {
          const separator = delimiter(run);
          run.vars[slot] = separator === '' ? Array.from(input(run)) : input(run).split(separator);
        };
      }
      case 'concatenate': {
        const append = optional('append');
        return (run) => {
          run.vars[slot] = input(run) + append(run);
        };
      }
    }
  },
});
