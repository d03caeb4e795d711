import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import type { EmailMessage } from '@flowgate/flow-engine';

/**
 * How a failed send should be treated:
 * - `retry`: the provider did not take the message (429, 5xx, connection refused): try again;
 * - `permanent`: the provider refused it for good (other 4xx): do not retry;
 * - `unknown`: the request may have reached the provider (timeout, reset mid-request):
 *   retrying could deliver it twice, so it is not retried.
 */
export type SendFailureKind = 'retry' | 'permanent' | 'unknown';

export class SendgridSendError extends Error {
  override name = 'SendgridSendError';
  constructor(
    readonly kind: SendFailureKind,
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface SendgridSenderOptions {
  apiKey: string;
  /** FLOWGATE_SENDGRID_BASE_URL; undefined → https://api.sendgrid.com. */
  baseUrl?: string;
  /** Per request; default 15 s. */
  timeoutMs?: number;
}

export interface SendgridSender {
  send(message: EmailMessage, customArgs: Record<string, string>): Promise<{ messageId: string | null }>;
}

/** Connection errors that happen before any byte of the request reached the provider. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function createSendgridSender(options: SendgridSenderOptions): SendgridSender {
  const client = new Client();
  client.setApiKey(options.apiKey);
  if (options.baseUrl) client.setDefaultRequest('baseUrl', options.baseUrl);
  // axios, under @sendgrid/client, takes `timeout`; the SDK's request type does not list it.
  (client as unknown as { setDefaultRequest(key: string, value: unknown): void }).setDefaultRequest('timeout', options.timeoutMs ?? 15_000);
  const mail = new MailService();
  mail.setClient(client);

  return {
    async send(message, customArgs) {
      try {
        const [response] = await mail.send({
          to: message.to,
          from: message.from,
          subject: message.subject,
          text: message.body,
          customArgs,
        });
        const id = response.headers['x-message-id'];
        return { messageId: typeof id === 'string' ? id : null };
      } catch (error) {
        throw classify(error);
      }
    },
  };
}

function classify(error: unknown): SendgridSendError {
  const err = error as { code?: unknown; message?: string; response?: { body?: { errors?: Array<{ message?: string }> } } };
  if (typeof err.code === 'number') {
    const status = err.code;
    const detail = err.response?.body?.errors?.map((e) => e.message).filter(Boolean).join('; ') || err.message || 'error';
    const kind: SendFailureKind = status === 429 || status >= 500 ? 'retry' : 'permanent';
    return new SendgridSendError(kind, `SendGrid answered ${status}: ${detail}`, status);
  }
  const code = typeof err.code === 'string' ? err.code : '';
  if (NOT_SENT_CODES.has(code)) return new SendgridSendError('retry', `could not reach SendGrid (${code})`, null);
  return new SendgridSendError('unknown', `SendGrid did not confirm the message (${code || err.message || 'no answer'})`, null);
}
