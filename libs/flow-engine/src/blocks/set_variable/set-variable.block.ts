import { z } from 'zod';
import { referenceNameSchema } from '../../schema/names';
import type { TemplateAst } from '../../template/template-ast';
import { BlockFailure } from '../../runtime/run-errors';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';
import { combine, SET_OPERATIONS } from './operations';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    name: referenceNameSchema.meta({ title: 'Name' }),
    value: kit.template(valueSource('Value')),
    operation: z.enum(SET_OPERATIONS).default('set').meta({ title: 'Operation' }),
  });
type SetVariableConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** Text and literal scalars have nothing below them; a reference or an object may. */
const isScalar = (value: TemplateAst): boolean =>
  value.kind === 'text' || (value.kind === 'literal' && (value.value === null || typeof value.value !== 'object'));

export const setVariableBlock = defineBlock<SetVariableConfig>({
  type: 'set_variable',
  label: 'Set Variable',
  category: 'data',
  description: 'Stores a value (text, number, boolean, JSON or a reference) as {local.NAME}, or appends to, increments or merges into it.',
  config,
  flow: 'next',
  outputs: ({ name, value, operation }) => [{ name, fields: operation === 'increment' || (operation === 'set' && isScalar(value)) ? [] : null, readableByName: false }],
  prepare: ({ name, value, operation }, context) => {
    const slot = context.variable(name);
    const resolve = context.value(value);
    if (operation === 'set') {
      return (run) => {
        run.keep(slot, resolve(run));
      };
    }
    return (run) => {
      const combined = combine(operation, run.vars[slot], resolve(run));
      if (typeof combined === 'string') throw new BlockFailure(`${name} ${combined}`);
      run.fitValue(combined.value, 'value');
      run.keep(slot, combined.value);
    };
  },
});
