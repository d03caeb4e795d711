import { z } from 'zod';

/** Generous bounds that keep validation cheap; a flow of this size is far beyond a readable one. */
export const MAX_FLOW_NODES = 500;
export const MAX_FLOW_EDGES = 1000;

export const flowNodeSchema = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(64),
  position: z.object({ x: z.number(), y: z.number() }),
  config: z.record(z.string(), z.json()).optional(),
});

export const flowEdgeSchema = z.object({
  id: z.string().min(1).max(200),
  source: z.string().min(1),
  target: z.string().min(1),
  /** `true` / `false` on edges leaving a Condition block; ignored elsewhere. */
  sourceHandle: z.string().nullish(),
});

/** The flow as the Workshop saves it (draft) and as versions freeze it. */
export const flowDocumentSchema = z.object({
  nodes: z.array(flowNodeSchema).max(MAX_FLOW_NODES),
  edges: z.array(flowEdgeSchema).max(MAX_FLOW_EDGES),
});

export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowEdge = z.infer<typeof flowEdgeSchema>;
export type FlowDocument = z.infer<typeof flowDocumentSchema>;
