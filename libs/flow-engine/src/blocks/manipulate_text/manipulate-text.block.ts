import { z } from 'zod';
import type { FlowRun } from '../../runtime/flow-run';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField, textOutput } from '../common/fields';

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

function fitted(run: FlowRun, text: string): string {
  run.fit(text.length);
  return text;
}

/** The JSON length of `text` split by `separator` (`"a","b"`), counted before the list is made. */
function splitSize(text: string, separator: string): number {
  let pieces = 1;
  if (separator === '') {
    // One piece per code point: a surrogate pair stays whole.
    let pairs = 0;
    for (let i = 0; i < text.length - 1; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff) {
        pairs++;
        i++;
      }
    }
    return 2 + 3 * (text.length - pairs) + text.length;
  }
  for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + separator.length)) pieces++;
  return 2 + 3 * pieces + text.length - (pieces - 1) * separator.length;
}

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
      // Case mapping can lengthen text (ß → SS, at most three for one): checked on the result.
      case 'uppercase':
        return (run) => {
          run.keep(slot, fitted(run, input(run).toUpperCase()));
        };
      case 'lowercase':
        return (run) => {
          run.keep(slot, fitted(run, input(run).toLowerCase()));
        };
      case 'trim_spaces':
        return (run) => {
          run.keep(slot, input(run).replace(WHITESPACE, ''));
        };
      case 'replace': {
        const find = optional('find');
        const replacement = optional('replacement');
        return (run) => {
          const text = input(run);
          const target = find(run);
          if (target === '') {
            run.keep(slot, text);
            return;
          }
          // Plain text on both sides: no pattern syntax, no `$&` in the replacement.
          const pieces = text.split(target);
          const by = replacement(run);
          run.fit(text.length + (pieces.length - 1) * (by.length - target.length));
          run.keep(slot, pieces.join(by));
        };
      }
      case 'split': {
        const delimiter = optional('delimiter');
        return (run) => {
          const text = input(run);
          const separator = delimiter(run);
          run.fit(splitSize(text, separator), 'list');
          run.keep(slot, separator === '' ? Array.from(text) : text.split(separator));
        };
      }
      case 'concatenate': {
        const append = optional('append');
        return (run) => {
          const text = input(run);
          const tail = append(run);
          run.fit(text.length + tail.length);
          run.keep(slot, text + tail);
        };
      }
    }
  },
});
