import { z } from 'zod';
import { REFERENCE_NAME_PATTERN, referenceNameSchema } from '../../schema/names';
import { FORBIDDEN_SEGMENTS } from '../../template/path-lookup';
import { BlockFailure } from '../../runtime/run-errors';
import { runIterations, type LoopOutcome } from '../../runtime/iterations';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';

export const MAX_LOOP_CONCURRENCY = 10;

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    list: kit.template(valueSource('List')),
    // Not a reference name of the flow (the editor keeps those unique): every loop may call its item `item`.
    item: z
      .string()
      .min(1)
      .max(58)
      .regex(REFERENCE_NAME_PATTERN, { error: 'must start with a letter or _ and contain only letters, digits and _' })
      .refine((name) => !FORBIDDEN_SEGMENTS.has(name), { error: 'may not be __proto__, constructor or prototype' })
      .default('item')
      .meta({ title: 'Item name' }),
    collect: kit.template(valueSource('Collect')).optional(),
    keep_nulls: z.boolean().default(false).meta({ title: 'Keep empty values' }),
    concurrency: z.number().int().min(1).max(MAX_LOOP_CONCURRENCY).default(1).meta({ title: 'Concurrency' }),
    ref: referenceNameSchema.meta({ title: 'Reference name' }),
  });
type ForEachConfig = z.output<ReturnType<typeof config<'compiled'>>>;

/** `{local.ITEM_index}`: the element's index, from 0. */
export const indexName = (item: string): string => `${item}_index`;

export const forEachBlock = defineBlock<ForEachConfig>({
  type: 'for_each',
  label: 'For Each',
  category: 'logic',
  description: 'Runs the blocks on its each handle once per element of a list ({local.item}); then goes on by done with the collected values in {local.REF}.',
  config,
  flow: 'loop',
  outputs: ({ item, ref, collect }) => [
    { name: item, fields: null, readableByName: false, scope: 'body' },
    { name: indexName(item), fields: [], readableByName: false, scope: 'body' },
    // Without collect: the number of iterations.
    { name: ref, fields: collect === undefined ? [] : null, readableByName: true, scope: 'after' },
  ],
  prepare: (config, context) => {
    const list = context.value(config.list);
    const itemSlot = context.variable(config.item);
    const indexSlot = context.variable(indexName(config.item));
    const collect = config.collect === undefined ? null : context.value(config.collect);
    const slot = context.variable(config.ref);
    const plan = {
      loop: { id: context.nodeId, type: 'for_each', label: context.label },
      concurrency: config.concurrency,
      itemSlot,
      indexSlot,
      collect,
      keepNulls: config.keep_nulls,
      body: context.body,
    };
    return (run) => {
      const items = list(run);
      if (!Array.isArray(items)) throw new BlockFailure(`List must give a list, got ${describe(items)}`, 'not_a_list');
      const outcome = runIterations(run, items, plan);
      const keep = (value: LoopOutcome) => {
        if (run.result === null) run.keep(slot, value);
      };
      return outcome instanceof Promise ? outcome.then(keep) : keep(outcome);
    };
  },
});

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (null)';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'string' ? 'text' : typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
