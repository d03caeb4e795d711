import type { Logger, RedisClient, SecretBox } from '@flowgate/platform';
import { UnrecoverableError, type Job } from 'bullmq';
import type { EmailJobData, EmailJobResult } from './email-job';
import { createSendgridSender, SendgridSendError, type SendgridSender, type SendgridSenderOptions } from './sendgrid-sender';

/** Long enough to outlive every retry of a job and any duplicate run of it. */
export const DELIVERY_MARKER_TTL_SECONDS = 7 * 24 * 3600;

/** `sending` while an attempt talks to SendGrid, `sent` once SendGrid accepted the message. */
export const deliveryMarkerKey = (queueName: string, jobId: string): string => `fg:email-delivery:${queueName}:${jobId}`;

export interface EmailDeliveryDeps {
  redis: RedisClient;
  secrets: SecretBox;
  sendgridBaseUrl?: string;
  logger: Logger;
  /** Replaceable in tests. */
  createSender?: (options: SendgridSenderOptions) => SendgridSender;
}

/**
 * Delivers one `send_email` job at most once. Before sending, the job claims a marker in
 * Redis (SET NX); right after SendGrid accepted the message the marker becomes `sent`.
 * A run that finds `sent` does nothing (a duplicate run of a finished job); a run that
 * finds `sending` knows an earlier attempt died mid-send and cannot tell whether SendGrid
 * took the message, so it gives up rather than risk a second copy. Provider 429/5xx and
 * refused connections release the claim and throw, so BullMQ retries with backoff; other
 * 4xx fail the job at once (UnrecoverableError → no retry → dead letter).
 */
export function createEmailDeliveryProcessor(deps: EmailDeliveryDeps): (job: Job<EmailJobData, EmailJobResult>) => Promise<EmailJobResult> {
  const createSender = deps.createSender ?? createSendgridSender;

  return async (job) => {
    if (!job.id) throw new UnrecoverableError('email job without an id');
    const marker = deliveryMarkerKey(job.queueName, job.id);
    const claimed = await deps.redis.set(marker, 'sending', 'EX', DELIVERY_MARKER_TTL_SECONDS, 'NX');
    if (claimed !== 'OK') {
      const state = await deps.redis.get(marker);
      if (state === 'sent') {
        deps.logger.info({ job_id: job.id, project_id: job.data.project_id }, 'email already sent; not sending again');
        return { status: 'already_sent', message_id: null };
      }
      throw new UnrecoverableError('an earlier attempt was interrupted while sending; not retried so the email is never sent twice');
    }

    let apiKey: string;
    try {
      apiKey = deps.secrets.decrypt(job.data.api_key_encrypted);
    } catch {
      await deps.redis.del(marker);
      throw new UnrecoverableError('the SendGrid key of this job cannot be decrypted (FLOWGATE_ENCRYPTION_KEY changed?)');
    }

    let messageId: string | null;
    try {
      ({ messageId } = await createSender({ apiKey, baseUrl: deps.sendgridBaseUrl }).send(job.data.message, {
        flowgate_job_id: job.id,
        flowgate_project_id: job.data.project_id,
      }));
    } catch (error) {
      if (error instanceof SendgridSendError && error.kind === 'unknown') throw new UnrecoverableError(`${error.message}; not retried so the email is never sent twice`);
      await deps.redis.del(marker);
      if (error instanceof SendgridSendError && error.kind === 'retry') throw error;
      throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
    }
    await deps.redis.set(marker, 'sent', 'EX', DELIVERY_MARKER_TTL_SECONDS);
    deps.logger.info({ job_id: job.id, project_id: job.data.project_id, message_id: messageId, attempt: job.attemptsMade + 1 }, 'email sent');
    return { status: 'sent', message_id: messageId };
  };
}
