import { blockCatalogue, flowDocumentSchema, functionInputsSchema } from '@flowgate/flow-engine';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { diagnosticSchema } from '../../endpoints/dto/endpoint.dto';

/** A new function starts with Start alone (Deploy then asks for a Return). */
export const EMPTY_FUNCTION_FLOW = { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }], edges: [] };

/** The function as the Workshop saves it: name, description, typed inputs and the flow. */
export const functionInputSchema = z.object({
  name: z.string().trim().min(1).max(100).describe("Unique in the project: Call Function's list shows it"),
  description: z.string().trim().max(1000).default(''),
  inputs: functionInputsSchema.describe('Typed inputs, read in the flow as {input.NAME}'),
  flow: flowDocumentSchema.default(EMPTY_FUNCTION_FLOW),
});
export type FunctionInputBody = z.infer<typeof functionInputSchema>;
export class SaveFunctionDto extends createZodDto(functionInputSchema) {}

const inputOut = z.object({
  name: z.string(),
  type: z.enum(['string', 'number', 'boolean', 'object', 'list', 'any']),
  required: z.boolean(),
  default: z.unknown().optional(),
});

const contentSchema = z.object({
  name: z.string(),
  description: z.string(),
  inputs: z.array(inputOut),
  flow: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose(),
});

export const functionSchema = contentSchema.extend({
  id: z.uuid(),
  project_id: z.uuid(),
  status: z.enum(['draft', 'live']),
  live_version: z.number().int().nullable(),
  has_undeployed_changes: z.boolean().describe('True when the draft differs from what is live (or nothing is live)'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FunctionView = z.infer<typeof functionSchema>;

export const functionVersionSchema = contentSchema.extend({ version: z.number().int(), live: z.boolean(), created_at: z.string() });
export type FunctionVersionView = z.infer<typeof functionVersionSchema>;

export class FunctionDto extends createZodDto(functionSchema) {}
export class FunctionListDto extends createZodDto(z.object({ items: z.array(functionSchema) })) {}
export class FunctionWithDiagnosticsDto extends createZodDto(functionSchema.extend({ diagnostics: z.array(diagnosticSchema) })) {}
export class FunctionVersionListDto extends createZodDto(z.object({ items: z.array(functionVersionSchema) })) {}
export class FunctionVersionDto extends createZodDto(functionVersionSchema) {}

/** The version of the file format this control plane writes and reads. */
export const FUNCTION_EXPORT_FORMAT = 1;
const BLOCK_TYPES: ReadonlySet<string> = new Set(blockCatalogue.map((entry) => entry.type));

/** A function as a file: its name, description, inputs and flow (block types checked as for endpoints). */
export const functionExportSchema = z.object({
  flowgate_export: z.literal(FUNCTION_EXPORT_FORMAT, {
    error: (issue) => (issue.input === undefined ? 'is missing: this is not a Flowgate function export' : `is ${JSON.stringify(issue.input)}, a version this Flowgate cannot read`),
  }),
  function: functionInputSchema.superRefine((fn, context) => {
    fn.flow.nodes.forEach((node, index) => {
      if (!BLOCK_TYPES.has(node.type)) context.addIssue({ code: 'custom', path: ['flow', 'nodes', index, 'type'], message: `"${node.type}" is not a block type` });
    });
  }),
});
export type FunctionExport = z.infer<typeof functionExportSchema>;
export class FunctionExportDto extends createZodDto(functionExportSchema) {}
export class FunctionExportFileDto extends createZodDto(z.object({ flowgate_export: z.literal(FUNCTION_EXPORT_FORMAT), function: contentSchema })) {}
