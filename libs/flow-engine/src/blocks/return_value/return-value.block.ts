import { z } from 'zod';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    value: kit.template(valueSource('Value')).prefault(null),
  });
type ReturnValueConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** Ends a function's flow: its value is what the Call Function block that called it stores. */
export const returnValueBlock = defineBlock<ReturnValueConfig>({
  type: 'return_value',
  label: 'Return',
  category: 'output',
  description: "Ends the function and gives its value to the caller; string values are templates.",
  config,
  flow: 'end',
  usableIn: ['function'],
  prepare: ({ value }, context) => {
    const resolve = context.value(value);
    return (run) => {
      run.result = { type: 'response', status: 200, body: resolve(run) };
    };
  },
});
