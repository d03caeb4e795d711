import { MAX_SECRET_VALUE_BYTES } from '@flowgate/contracts';
import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

const value = (what: string) =>
  z
    .string()
    .min(1, 'must not be empty')
    .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_SECRET_VALUE_BYTES, `must be at most ${MAX_SECRET_VALUE_BYTES} bytes`)
    .describe(what);

export const putSecretSchema = z.object({
  value: value('The live value (1 B – 8 KiB of text); stored encrypted, never returned'),
  preview_value: value('Used on the preview address instead of `value`; null removes it, omitted keeps the stored one').nullish(),
  description: z.string().trim().max(500, 'must be at most 500 characters').nullish().describe('What the secret is for; omitted keeps the stored one'),
});
export type PutSecretInput = z.infer<typeof putSecretSchema>;
export class PutSecretDto extends createZodDto(putSecretSchema) {}

export const secretSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  has_preview_value: z.boolean(),
  used_by: z.array(z.object({ endpoint_id: z.uuid(), name: z.string() })).describe('Live endpoints whose flow reads {secrets.NAME}'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SecretView = z.infer<typeof secretSchema>;
export class SecretDto extends createZodDto(secretSchema) {}
export class SecretListDto extends createZodDto(z.object({ items: z.array(secretSchema) })) {}

export const deleteSecretQuerySchema = z.object({
  force: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((flag) => flag === 'true')
    .describe('Delete even while live endpoints read it (their blocks then fail naming the secret)'),
});
export class DeleteSecretQueryDto extends createZodDto(deleteSecretQuerySchema) {}
