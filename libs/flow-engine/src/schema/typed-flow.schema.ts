import { z } from 'zod';
import { blockRegistry } from '../blocks/registry';
import { flowEdgeSchema, MAX_FLOW_EDGES, MAX_FLOW_NODES } from './flow-document.schema';

/** What a flow belongs to (the same kinds as validation's). */
type FlowKindOf = 'endpoint' | 'function' | 'schedule';

const HANDLES_NOTE =
  '`true`/`false` on edges leaving a Condition, `each`/`done` on edges leaving a For Each, `error` for the error path of a block that can fail; null otherwise';

/**
 * The flow document with every node typed by its block: one variant per block type usable in a
 * flow of `kind`, its `config` the block's own (source) config schema from the registry. The
 * plain `flowDocumentSchema` accepts any type and config (drafts may be incomplete); this one
 * says exactly what a complete flow holds, for a generator to follow (the drafting
 * assistant's tool, through `z.toJSONSchema`). Nothing here is written per block.
 */
export function typedFlowDocumentSchema(kind: FlowKindOf) {
  const variants = [...blockRegistry.values()]
    .filter(({ definition }) => definition.usableIn === undefined || definition.usableIn.includes(kind))
    .map(({ definition, sourceSchema }) =>
      z
        .object({
          id: z.string().min(1).max(100).describe('Unique within the flow, e.g. "n1"'),
          type: z.literal(definition.type),
          position: z.object({ x: z.number(), y: z.number() }).describe('Where the block is drawn; flows read left to right, about 240 px a step'),
          config: sourceSchema,
        })
        .describe(`${definition.label}: ${definition.description}`),
    );
  const [first, ...rest] = variants;
  if (first === undefined) throw new Error(`No block is usable in a flow of kind ${kind}`);
  return z.object({
    nodes: z.array(z.discriminatedUnion('type', [first, ...rest])).max(MAX_FLOW_NODES),
    edges: z.array(flowEdgeSchema.extend({ sourceHandle: flowEdgeSchema.shape.sourceHandle.describe(HANDLES_NOTE) })).max(MAX_FLOW_EDGES),
  });
}
