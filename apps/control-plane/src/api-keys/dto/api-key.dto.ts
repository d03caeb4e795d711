import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const MAX_RATELIMIT_MIN = 100_000;

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(50, 'must be at most 50 characters'),
  ratelimit_min: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .positive('must be at least 1')
    .max(MAX_RATELIMIT_MIN, `must be at most ${MAX_RATELIMIT_MIN}`)
    .default(60)
    .describe('Requests per minute (sliding 60-second window)'),
  permission: z.enum(['user', 'admin'], { error: 'must be user or admin' }).default('user'),
});
export class CreateApiKeyDto extends createZodDto(createApiKeySchema) {}
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;

export const keyDataSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  last_used_at: z.string().nullable(),
  created_at: z.string(),
  ratelimit_min: z.number().int(),
  permission: z.enum(['user', 'admin']),
});
export type KeyData = z.infer<typeof keyDataSchema>;

export const createdApiKeySchema = z.object({
  success: z.literal(true),
  key: z.string().describe('The secret; shown this once'),
  key_data: keyDataSchema,
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
export class CreatedApiKeyDto extends createZodDto(createdApiKeySchema) {}

const listedKeySchema = keyDataSchema.extend({ key_prefix: z.string().describe('First characters of the secret, to recognise it') });
export type ListedKey = z.infer<typeof listedKeySchema>;
export class ApiKeyListDto extends createZodDto(z.object({ items: z.array(listedKeySchema) })) {}
