import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const INTEGRATION_KINDS = ['text-generation', 'email'] as const;
export type IntegrationKindParam = (typeof INTEGRATION_KINDS)[number];

const apiKey = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(500, 'must be at most 500 characters')
  .optional()
  .describe('The provider secret; required the first time, omit it to keep the stored one');

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as example.com');

export class PutTextGenerationDto extends createZodDto(
  z.object({
    provider: z.literal('anthropic'),
    api_key: apiKey,
    default_model: z.string().trim().min(1).max(100).nullish().describe('Model used when a Generate Text block names none'),
  }),
) {}

export class PutEmailDto extends createZodDto(
  z.object({
    provider: z.literal('sendgrid'),
    api_key: apiKey,
    verified_domains: z
      .array(domain)
      .max(50, 'must list at most 50 domains')
      .default([])
      .describe('Sender domains verified with SendGrid; Send Email blocks may only send From these'),
  }),
) {}

export const integrationSchema = z.object({
  kind: z.enum(INTEGRATION_KINDS),
  provider: z.string(),
  api_key_masked: z.string().describe('The secret is never returned; only its last four characters'),
  needs_new_secret: z
    .boolean()
    .describe('The stored secret cannot be decrypted (the encryption key changed): the integration is off until a new api_key is saved'),
  default_model: z.string().nullable().optional(),
  verified_domains: z.array(z.string()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IntegrationView = z.infer<typeof integrationSchema>;

export class IntegrationDto extends createZodDto(integrationSchema) {}
export class IntegrationListDto extends createZodDto(z.object({ items: z.array(integrationSchema) })) {}
