import type { SignatureScheme } from '@flowgate/flow-engine';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface SignatureCheck {
  scheme: SignatureScheme;
  /** The project secret holding the signing secret, read at request time (a rotated value applies at once). */
  secret: string;
  /** hmac_sha256 only: where the sender puts the signature (lower-cased). */
  header: string | undefined;
  toleranceS: number;
}

/**
 * Verifies a webhook sender's signature over the raw body, as each provider documents it.
 * null when it holds; else why not (said to the caller and logged: it names no secret).
 * Every comparison is of HMAC digests in constant time.
 */
export function signatureProblem(check: SignatureCheck, secret: string, raw: Buffer, headers: IncomingHttpHeaders, nowS: number): string | null {
  switch (check.scheme) {
    case 'stripe':
      return stripe(secret, raw, headerOf(headers, 'stripe-signature'), nowS, check.toleranceS);
    case 'github':
      return prefixedHex(secret, raw, headerOf(headers, 'x-hub-signature-256'), 'X-Hub-Signature-256', 'sha256=');
    case 'slack':
      return slack(secret, raw, headers, nowS, check.toleranceS);
    case 'standard_webhooks':
      return standardWebhooks(secret, raw, headers, nowS, check.toleranceS);
    case 'hmac_sha256':
      return plainHmac(secret, raw, headerOf(headers, check.header ?? ''), check.header ?? '');
  }
}

const headerOf = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const hmac = (key: string | Buffer, ...parts: Array<string | Buffer>): Buffer => {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Constant time for equal lengths; a signature of another length is simply wrong (digests have one length). */
function sameDigest(expected: Buffer, given: Buffer): boolean {
  if (given.length !== expected.length) return false;
  return timingSafeEqual(expected, given);
}

const HEX = /^[0-9a-fA-F]{64}$/;
const fromHex = (text: string): Buffer | null => (HEX.test(text) ? Buffer.from(text, 'hex') : null);

function timestampProblem(timestamp: string | undefined, nowS: number, toleranceS: number): string | null {
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return 'the signature has no valid timestamp';
  if (Math.abs(nowS - Number(timestamp)) > toleranceS) return `the signature's timestamp is more than ${toleranceS} s away from now (a replay, or a clock far off)`;
  return null;
}

const MISMATCH = 'the signature does not match the body';

/** `Stripe-Signature: t=…,v1=…[,v1=…]` over `{t}.{body}` (the endpoint's whsec_… secret as the key). */
function stripe(secret: string, raw: Buffer, header: string | undefined, nowS: number, toleranceS: number): string | null {
  if (header === undefined) return 'the Stripe-Signature header is missing';
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1') {
      const digest = fromHex(value);
      if (digest !== null) signatures.push(digest);
    }
  }
  const stale = timestampProblem(timestamp, nowS, toleranceS);
  if (stale !== null) return stale;
  const expected = hmac(secret, `${timestamp}.`, raw);
  return signatures.some((given) => sameDigest(expected, given)) ? null : MISMATCH;
}

/** `X-Slack-Signature: v0=…` over `v0:{X-Slack-Request-Timestamp}:{body}`. */
function slack(secret: string, raw: Buffer, headers: IncomingHttpHeaders, nowS: number, toleranceS: number): string | null {
  const signature = headerOf(headers, 'x-slack-signature');
  if (signature === undefined) return 'the X-Slack-Signature header is missing';
  const timestamp = headerOf(headers, 'x-slack-request-timestamp');
  const stale = timestampProblem(timestamp, nowS, toleranceS);
  if (stale !== null) return stale;
  const given = signature.startsWith('v0=') ? fromHex(signature.slice(3)) : null;
  return given !== null && sameDigest(hmac(secret, `v0:${timestamp}:`, raw), given) ? null : MISMATCH;
}

/**
 * Standard Webhooks: `webhook-signature: v1,<base64> [v1,<base64>…]` over `{webhook-id}.{webhook-timestamp}.{body}`;
 * the key is the base64 after `whsec_` (a secret without the prefix is used as it is).
 */
function standardWebhooks(secret: string, raw: Buffer, headers: IncomingHttpHeaders, nowS: number, toleranceS: number): string | null {
  const id = headerOf(headers, 'webhook-id');
  const signature = headerOf(headers, 'webhook-signature');
  if (id === undefined || signature === undefined) return 'the webhook-id or webhook-signature header is missing';
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const stale = timestampProblem(timestamp, nowS, toleranceS);
  if (stale !== null) return stale;
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
  const expected = hmac(key, `${id}.${timestamp}.`, raw);
  const matches = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => sameDigest(expected, Buffer.from(entry.slice(3), 'base64')));
  return matches ? null : MISMATCH;
}

/** GitHub's `sha256=<hex>`. */
function prefixedHex(secret: string, raw: Buffer, header: string | undefined, name: string, prefix: string): string | null {
  if (header === undefined) return `the ${name} header is missing`;
  const given = header.startsWith(prefix) ? fromHex(header.slice(prefix.length)) : null;
  return given !== null && sameDigest(hmac(secret, raw), given) ? null : MISMATCH;
}

/** Any sender: HMAC-SHA256 of the body in hex or base64, with or without a `sha256=` prefix. */
function plainHmac(secret: string, raw: Buffer, header: string | undefined, name: string): string | null {
  if (header === undefined) return `the ${name} header is missing`;
  const value = header.startsWith('sha256=') ? header.slice(7) : header;
  const given = fromHex(value) ?? Buffer.from(value, 'base64');
  return sameDigest(hmac(secret, raw), given) ? null : MISMATCH;
}
