import type { EmailMessage } from '@flowgate/flow-engine';

/** The BullMQ queue the gateway adds `send_email` jobs to and the worker consumes. */
export const EMAIL_QUEUE_NAME = 'flowgate-email';
export const EMAIL_JOB_NAME = 'send';
/** Runs in total (EMAIL_QUEUE_ATTEMPTS). */
export const DEFAULT_EMAIL_ATTEMPTS = 5;
/** Exponential: retries after 1 s, 2 s, 4 s, 8 s, … */
export const EMAIL_BACKOFF_MS = 1000;

export interface EmailJobData {
  project_id: string;
  message: EmailMessage;
  /** The SendGrid key as published (AES-256-GCM, FLOWGATE_ENCRYPTION_KEY); decrypted by the worker only. */
  api_key_encrypted: string;
  enqueued_at: string;
}

export interface EmailJobResult {
  status: 'sent' | 'already_sent';
  /** SendGrid's `X-Message-Id`, when it gave one. */
  message_id: string | null;
}

/** The domain of `Display Name <addr@domain>` or `addr@domain`, lowercased; null when there is none. */
export function senderDomain(from: string): string | null {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  const domain = address.slice(at + 1).trim().toLowerCase();
  return domain || null;
}
