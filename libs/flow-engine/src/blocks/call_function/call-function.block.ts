import { z } from 'zod';
import { BlockFailure } from '../../runtime/run-errors';
import { referenceNameSchema } from '../../schema/names';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { checkCall } from './call-check';
import { callFunction, valuesFor } from './function-call';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    // `projectFunction`: the editor offers the project's functions, then one field per input of the chosen one.
    function: z.string().min(1, 'choose a function').max(64).meta({ title: 'Function', projectFunction: 'function' }),
    /** One value per input, by input name: a JSON object whose string leaves are templates. */
    args: kit.template(z.json().meta({ title: 'Arguments', projectFunction: 'args' })).prefault({}),
    ref: referenceNameSchema.meta({ title: 'Reference name' }),
  });
type CallFunctionConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const callFunctionBlock = defineBlock<CallFunctionConfig>({
  type: 'call_function',
  label: 'Call Function',
  category: 'logic',
  description: "Runs one of the project's functions with its inputs and stores what it returns as {result.REF}.",
  config,
  flow: 'next',
  // A failure of its own (the function failed, an argument did not fit) may take the `error` handle.
  canFail: true,
  outputs: ({ ref }) => [{ name: ref, fields: null, readableByName: false }],
  check: (config, diagnostics, { context }) => checkCall(config, diagnostics, context),
  prepare: ({ function: functionId, args, ref }, context) => {
    const slot = context.variable(ref);
    const resolveArgs = context.value(args);
    const block = { id: context.nodeId, type: 'call_function', label: context.label };
    return (run) => {
      const fn = run.ports.functions?.get(functionId);
      if (fn === undefined) throw new BlockFailure(`the function ${functionId} is not deployed (or was deleted); deploy it, then this flow again`);
      const returned = callFunction(run, fn, valuesFor(fn, resolveArgs(run)), block);
      if (returned instanceof Promise) return returned.then((value) => run.keep(slot, value));
      run.keep(slot, returned);
      return undefined;
    };
  },
});

