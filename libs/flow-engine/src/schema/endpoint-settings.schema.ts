import { z } from 'zod';
import { endpointPathProblem } from './endpoint-path';
import { PARAM_KEY_PATTERN } from './names';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const MAX_QUERY_PARAMS = 10;

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

export const queryParamSchema = z.object({
  key: z
    .string()
    // Stops at an empty key: one "must not be empty", not also the character rule.
    // The message is spelled out so the API's refusal of a Save reads like the browser's finding.
    .min(1, { abort: true, error: 'must not be empty' })
    .max(64)
    .regex(PARAM_KEY_PATTERN, { error: 'may contain only letters, digits, _ and -' })
    .meta({ title: 'Key' }),
  default: z.string().max(2000).nullable().default(null).meta({ title: 'Default value' }),
});

/** The Workshop's base settings block: what the gateway routes and authenticates on. */
export const endpointSettingsSchema = z.object({
  name: z.string().trim().min(1).max(100).meta({ title: 'Name' }),
  method: z.enum(HTTP_METHODS).default('GET').meta({ title: 'Method' }),
  path: z
    .string()
    .trim()
    .max(200)
    // "/orders/" and "/orders" are one endpoint.
    .transform(withoutTrailingSlashes)
    .superRefine((path, ctx) => {
      const problem = endpointPathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ title: 'Path' }),
  auth: z.enum(['none', 'user', 'admin']).default('none').meta({ title: 'Authentication' }),
  query_params: z
    .array(queryParamSchema)
    .max(MAX_QUERY_PARAMS)
    .default([])
    .refine((params) => new Set(params.map((param) => param.key)).size === params.length, {
      error: 'must not contain the same key twice',
      params: { code: 'duplicate_query_param' },
    })
    .meta({ title: 'Query parameters', itemTitle: 'Query parameter' }),
});

export type EndpointSettings = z.infer<typeof endpointSettingsSchema>;
export type HttpMethod = (typeof HTTP_METHODS)[number];
