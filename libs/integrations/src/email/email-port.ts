import { randomUUID } from 'node:crypto';
import { IntegrationError, type EmailMessage, type EmailPort } from '@flowgate/flow-engine';
import type { Queue } from 'bullmq';
import { DEFAULT_EMAIL_ATTEMPTS, EMAIL_BACKOFF_MS, EMAIL_JOB_NAME, senderDomain, type EmailJobData } from './email-job';

export interface EmailPortOptions {
  /** The `flowgate-email` queue (same BullMQ prefix as the worker). */
  queue: Queue;
  projectId: string;
  verifiedDomains: readonly string[];
  /** Stays encrypted in the job; only the worker decrypts it. */
  apiKeyEncrypted: string;
  /** EMAIL_QUEUE_ATTEMPTS; the worker enforces its own value anyway. */
  attempts?: number;
}

/**
 * `send_email` only enqueues: the request goes on as soon as the job is stored in Redis;
 * the worker delivers it (with retries) later. Every job gets a random id, which is also the
 * worker's idempotency key.
 */
export function createEmailPort(options: EmailPortOptions): EmailPort {
  const verifiedDomains = options.verifiedDomains.map((domain) => domain.trim().toLowerCase());
  return {
    verifiedDomains,
    async enqueue(message: EmailMessage, signal?: AbortSignal): Promise<void> {
      signal?.throwIfAborted();
      const domain = senderDomain(message.from);
      if (!domain || !verifiedDomains.includes(domain)) {
        throw new IntegrationError(
          'sendgrid',
          `the sender domain ${domain ?? '(none)'} is not verified for this project (verified: ${verifiedDomains.join(', ') || 'none'})`,
        );
      }
      const data: EmailJobData = {
        project_id: options.projectId,
        message: { to: message.to, from: message.from, subject: message.subject, body: message.body },
        api_key_encrypted: options.apiKeyEncrypted,
        enqueued_at: new Date().toISOString(),
      };
      await options.queue.add(EMAIL_JOB_NAME, data, {
        jobId: randomUUID(),
        attempts: options.attempts ?? DEFAULT_EMAIL_ATTEMPTS,
        backoff: { type: 'exponential', delay: EMAIL_BACKOFF_MS },
        removeOnComplete: { age: 7 * 24 * 3600, count: 1000 },
        removeOnFail: false,
      });
    },
  };
}
