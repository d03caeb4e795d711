import { env, loadConfig } from '@flowgate/platform';
import { z } from 'zod';
import { parseCidrList } from './egress/address-policy';

const optionalUrl = (example: string) =>
  z
    .string()
    .optional()
    .transform((value) => (value && value.trim() ? value.trim() : undefined))
    .refine((value) => {
      if (value === undefined) return true;
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be an http:// or https:// URL (e.g. ${example})`);

export const integrationsConfigSchema = z.object({
  FLOWGATE_EGRESS_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseCidrList(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `${(error as Error).message}; use a comma-separated list` });
        return z.NEVER;
      }
    }).describe('address ranges flows may reach despite the egress guard (e.g. `127.0.0.0/8`)'),
  FLOWGATE_EGRESS_TIMEOUT_MS: env.positiveInt(10_000).describe('whole outbound exchange of `http_request` and image downloads'),
  FLOWGATE_EGRESS_MAX_BYTES: env.positiveInt(5 * 1024 * 1024).describe('largest `http_request` response body'),
  FLOWGATE_IMAGE_TTL_SECONDS: env.positiveInt(86_400).describe('how long a `manipulate_image` result is served'),
  FLOWGATE_IMAGE_MAX_BYTES: env.positiveInt(10 * 1024 * 1024).describe('largest image download'),
  FLOWGATE_IMAGE_MAX_PIXELS: env.positiveInt(25_000_000).describe('largest image canvas, checked before decoding'),
  ANTHROPIC_BASE_URL: optionalUrl('http://127.0.0.1:4010').describe('where the Anthropic SDK sends requests').meta({ defaultText: 'Anthropic\'s API' }),
  FLOWGATE_SENDGRID_BASE_URL: optionalUrl('http://127.0.0.1:4020').describe('where `@sendgrid/mail` sends requests').meta({ defaultText: '`https://api.sendgrid.com`' }),
  EMAIL_QUEUE_ATTEMPTS: env.positiveInt(5).describe('runs of an email job in total (retries after 1 s, 2 s, 4 s, …)'),
  // The worker reads the same variable; producer and worker must agree.
  BULLMQ_PREFIX: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/, 'must be letters, digits, "_", "." or "-"').default('bull').describe('BullMQ key prefix; producers (the gateway\'s email jobs, the control plane\'s schedule job schedulers) and the worker must agree'),
});

/** Configuration of the integration adapters (gateway and worker), validated at boot. */
export interface IntegrationsConfig {
  egress: { allowCidrs: string[]; timeoutMs: number; maxResponseBytes: number };
  images: { ttlSeconds: number; maxBytes: number; maxPixels: number };
  /** Undefined: the vendor's own address. */
  anthropicBaseUrl: string | undefined;
  sendgridBaseUrl: string | undefined;
  emailQueueAttempts: number;
  /** BullMQ key prefix of the email queue (BULLMQ_PREFIX, shared with the worker). */
  bullmqPrefix: string;
}

export function loadIntegrationsConfig(source: NodeJS.ProcessEnv = process.env): IntegrationsConfig {
  const parsed = loadConfig(integrationsConfigSchema, source);
  return {
    egress: {
      allowCidrs: parsed.FLOWGATE_EGRESS_ALLOW_CIDRS,
      timeoutMs: parsed.FLOWGATE_EGRESS_TIMEOUT_MS,
      maxResponseBytes: parsed.FLOWGATE_EGRESS_MAX_BYTES,
    },
    images: {
      ttlSeconds: parsed.FLOWGATE_IMAGE_TTL_SECONDS,
      maxBytes: parsed.FLOWGATE_IMAGE_MAX_BYTES,
      maxPixels: parsed.FLOWGATE_IMAGE_MAX_PIXELS,
    },
    anthropicBaseUrl: parsed.ANTHROPIC_BASE_URL,
    sendgridBaseUrl: parsed.FLOWGATE_SENDGRID_BASE_URL,
    emailQueueAttempts: parsed.EMAIL_QUEUE_ATTEMPTS,
    bullmqPrefix: parsed.BULLMQ_PREFIX,
  };
}
