import { z } from 'zod';
import { referenceNameSchema } from '../../schema/names';
import type { TemplateAst } from '../../template/template-ast';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    name: referenceNameSchema.meta({ title: 'Name' }),
    value: kit.template(valueSource('Value')),
  });
type SetVariableConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** Text and literal scalars have nothing below them; a reference or an object may. */
const isScalar = (value: TemplateAst): boolean =>
  value.kind === 'text' || (value.kind === 'literal' && (value.value === null || typeof value.value !== 'object'));

export const setVariableBlock = defineBlock<SetVariableConfig>({
  type: 'set_variable',
  label: 'Set Variable',
  category: 'data',
  description: 'Stores a value (text, number, boolean, JSON or a reference) as {local.NAME}.',
  config,
  flow: 'next',
  outputs: ({ name, value }) => [{ name, fields: isScalar(value) ? [] : null, readableByName: false }],
  prepare: ({ name, value }, context) => {
    const slot = context.variable(name);
    const resolve = context.value(value);
    return (run) => {
      run.keep(slot, resolve(run));
    };
  },
});
