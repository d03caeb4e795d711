import { z } from 'zod';
import { QUERY_PARAM_TYPES } from '../schema/inbound-settings.schema';
import { FUNCTION_INPUT_TYPES } from '../schema/function-inputs.schema';

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
  query_params: z.array(z.object({ key: z.string(), default: z.string().nullable(), type: z.enum(QUERY_PARAM_TYPES).optional() })),
  /** A function's inputs, in order (absent for an endpoint): `{input.NAME}` reads them. */
  inputs: z.array(z.object({ name: z.string(), type: z.enum(FUNCTION_INPUT_TYPES), default: z.json() })).optional(),
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
      /** A For Each's body: the block its `each` handle leads to (`next` is its `done` handle). */
      body: blockIndex.optional(),
      /** Where a failure of the block goes on (its `error` handle); absent: the failure ends the request. */
      on_error: blockIndex.optional(),
    }),
  ),
});

export type CompiledFlow = z.infer<typeof compiledFlowSchema>;
export type CompiledBlock = CompiledFlow['blocks'][number];
