import { z } from 'zod';

export const COMPILED_FLOW_FORMAT = 1;

const blockIndex = z.number().int().min(0).nullable();

/**
 * The deployable form of a flow: plain JSON (stored with the version in PostgreSQL and
 * published to Redis). Blocks are in execution order — every `next` points forward — and their
 * configs hold templates as pre-parsed ASTs, so preparing it parses no template text.
 */
export const compiledFlowSchema = z.object({
  format: z.literal(COMPILED_FLOW_FORMAT),
  /** The endpoint's configured query parameters and their defaults. */
  query_params: z.array(z.object({ key: z.string(), default: z.string().nullable() })),
  /** Index of the block Start leads to; null for an empty flow. */
  entry: blockIndex,
  blocks: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      config: z.record(z.string(), z.unknown()),
      /** The next block; for a Condition, the `true` branch. */
      next: blockIndex,
      /** A Condition's `false` branch. */
      next_when_false: blockIndex.optional(),
    }),
  ),
});

export type CompiledFlow = z.infer<typeof compiledFlowSchema>;
export type CompiledBlock = CompiledFlow['blocks'][number];
