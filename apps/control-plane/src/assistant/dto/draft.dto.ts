import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { diagnosticSchema } from '../../endpoints/dto/endpoint.dto';

/** Longest description the assistant takes: a page of text, far below what a model reads, far above what a person types. */
export const MAX_PROMPT_CHARS = 4000;

export const draftRequestSchema = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, 'must describe the endpoint')
    .max(MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`)
    .describe('What the endpoint should do, in plain words'),
  endpoint_id: z.uuid('must be the id of an endpoint of the project').nullish().describe("An endpoint whose draft the assistant starts from (it is not changed)"),
});
export type DraftRequest = z.infer<typeof draftRequestSchema>;

export const draftSchema = z.object({
  flow: z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose().describe('The drafted flow document, as Save takes it'),
  settings: z.object({}).loose().describe('The drafted endpoint settings (name, method, path, auth, query_params, …), as Save takes them'),
  explanation: z.string().describe("The model's account of the draft, for the person who asked"),
  diagnostics: z.array(diagnosticSchema).describe('What Save would report for the draft: the problems left after the repair rounds'),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }).describe('Tokens of every model call the draft took'),
});
export type Draft = z.infer<typeof draftSchema>;

export const assistantStatusSchema = z.object({
  available: z.boolean().describe('False when the operator has not set FLOWGATE_ASSISTANT_API_KEY'),
  drafts_per_hour: z.number().int().describe('Drafts one account may ask for in any sliding hour (ASSISTANT_PER_HOUR)'),
});

export class DraftRequestDto extends createZodDto(draftRequestSchema) {}
export class DraftDto extends createZodDto(draftSchema) {}
export class AssistantStatusDto extends createZodDto(assistantStatusSchema) {}
