import { blockCatalogue } from '@flowgate/flow-engine';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { endpointInputSchema, endpointOptionsOut } from './endpoint.dto';

/** The version of the file format this control plane writes and reads. */
export const EXPORT_FORMAT = 1;

const BLOCK_TYPES: ReadonlySet<string> = new Set(blockCatalogue.map((entry) => entry.type));

/**
 * An endpoint as a file (review, backup, copy between projects): its settings and flow. Import
 * validates it with the engine's schemas: a block type this Flowgate does not have is refused
 * (it could never run), an incomplete block is not (drafts may be incomplete; diagnostics say why).
 */
export const endpointExportSchema = z.object({
  flowgate_export: z.literal(EXPORT_FORMAT, {
    error: (issue) =>
      issue.input === undefined
        ? 'is missing: this is not a Flowgate endpoint export'
        : `is ${JSON.stringify(issue.input)}, a version this Flowgate cannot read (it reads version ${EXPORT_FORMAT})`,
  }),
  endpoint: endpointInputSchema.superRefine((endpoint, context) => {
    endpoint.flow.nodes.forEach((node, index) => {
      if (!BLOCK_TYPES.has(node.type)) context.addIssue({ code: 'custom', path: ['flow', 'nodes', index, 'type'], message: `"${node.type}" is not a block type` });
    });
  }),
});
export type EndpointExport = z.infer<typeof endpointExportSchema>;

export class EndpointExportDto extends createZodDto(endpointExportSchema) {}

/** What export answers (the same shape, as output). */
export class EndpointExportFileDto extends createZodDto(
  z.object({
    flowgate_export: z.literal(EXPORT_FORMAT),
    endpoint: z.object({
      name: z.string(),
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
      path: z.string(),
      auth: z.enum(['none', 'user', 'admin']),
      query_params: z.array(z.object({ key: z.string(), default: z.string().nullable() }).loose()),
      body_schema: endpointOptionsOut.body_schema.optional(),
      signature: endpointOptionsOut.signature.optional(),
      cache: endpointOptionsOut.cache.optional(),
      mcp: endpointOptionsOut.mcp.optional(),
      flow: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose(),
    }),
  }),
) {}
