import {
  createEmailDeliveryProcessor,
  DEFAULT_EMAIL_ATTEMPTS,
  EMAIL_BACKOFF_MS,
  EMAIL_QUEUE_NAME,
  loadIntegrationsConfig,
  type EmailJobData,
  type EmailJobResult,
} from '@flowgate/integrations';
import { createRedisClient, devSecretDefault, env, loadConfig, SecretBox } from '@flowgate/platform';
import { z } from 'zod';
import type { QueueDefinition } from '../../queue-definition';

export const emailQueueConfigSchema = z.object({
  REDIS_URL: env.redisUrl,
  REDIS_CLUSTER_NODES: env.redisClusterNodes,
  FLOWGATE_ENCRYPTION_KEY: z
    .string({ error: 'is required: the key that decrypts integration secrets (64 hex characters)' })
    .min(16, 'must be at least 16 characters (64 hex characters recommended)').describe('AES-256-GCM key of integration secrets and project secrets (`{secrets.NAME}`) (64 hex characters); the same value everywhere').meta(devSecretDefault),
  /** During a key rotation: jobs queued before it carry secrets sealed with the old key. */
  FLOWGATE_ENCRYPTION_KEY_PREVIOUS: z.string().optional().describe('during a key rotation, the old key: secrets sealed with it still open, and the control plane seals them again with `FLOWGATE_ENCRYPTION_KEY` (see "Changing the encryption key")'),
});

/** Read before `setup` (the runtime needs the policy first); `setup` validates it properly. */
function attemptsFromEnv(): number {
  const value = Number(process.env.EMAIL_QUEUE_ATTEMPTS);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_EMAIL_ATTEMPTS;
}

/** `send_email` delivery through SendGrid: retries 429/5xx with exponential backoff (1 s, 2 s, 4 s, …), at most once per job. */
export const queue: QueueDefinition<EmailJobData, EmailJobResult> = {
  name: EMAIL_QUEUE_NAME,
  attempts: attemptsFromEnv(),
  backoffMs: EMAIL_BACKOFF_MS,
  concurrency: 4,
  setup(context) {
    const integrations = loadIntegrationsConfig(context.env);
    const { REDIS_URL, REDIS_CLUSTER_NODES, FLOWGATE_ENCRYPTION_KEY, FLOWGATE_ENCRYPTION_KEY_PREVIOUS } = loadConfig(emailQueueConfigSchema, context.env);
    const redis = createRedisClient(
      { url: REDIS_URL, clusterNodes: REDIS_CLUSTER_NODES },
      { node: { connectionName: 'flowgate-worker-email', maxRetriesPerRequest: 3 } },
    );
    redis.on('error', (error) => context.logger.debug({ err: error }, 'email queue redis connection error'));
    const deliver = createEmailDeliveryProcessor({
      redis,
      secrets: new SecretBox(FLOWGATE_ENCRYPTION_KEY, [FLOWGATE_ENCRYPTION_KEY_PREVIOUS]),
      sendgridBaseUrl: integrations.sendgridBaseUrl,
      logger: context.logger,
    });
    return {
      process: deliver,
      close: async () => {
        await redis.quit();
      },
    };
  },
};
