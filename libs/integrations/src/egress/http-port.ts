import type { HttpPort, OutboundRequest, OutboundResponse } from '@flowgate/flow-engine';
import { AddressPolicy } from './address-policy';
import { createGuardedFetch, type GuardedFetch, type GuardedFetchOptions } from './guarded-fetch';

export interface EgressOptions {
  /** CIDR ranges flows may reach despite the guard (FLOWGATE_EGRESS_ALLOW_CIDRS). */
  allowCidrs?: readonly string[];
  /** Default 10 000 (FLOWGATE_EGRESS_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Default 5 MiB (FLOWGATE_EGRESS_MAX_BYTES). */
  maxResponseBytes?: number;
  maxRedirects?: number;
  resolve?: GuardedFetchOptions['resolve'];
}

export const DEFAULT_EGRESS_TIMEOUT_MS = 10_000;
export const DEFAULT_EGRESS_MAX_BYTES = 5 * 1024 * 1024;

/** The guarded fetch shared by `http_request` and `manipulate_image`. */
export function createEgressFetch(options: EgressOptions = {}): GuardedFetch {
  return createGuardedFetch({
    policy: new AddressPolicy(options.allowCidrs ?? []),
    timeoutMs: options.timeoutMs ?? DEFAULT_EGRESS_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_EGRESS_MAX_BYTES,
    maxRedirects: options.maxRedirects,
    resolve: options.resolve,
  });
}

/**
 * `HttpPort` for the `http_request` block. Throws `EgressError` (`egress_blocked`, `timeout`,
 * `connection_failed`, `response_too_large`); any HTTP status is a normal response.
 */
export function createHttpPort(options: EgressOptions | { fetch: GuardedFetch } = {}): HttpPort {
  const fetch = 'fetch' in options ? options.fetch : createEgressFetch(options);
  return {
    async request(request: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse> {
      const response = await fetch({ method: request.method, url: request.url, headers: request.headers, body: request.body }, signal);
      return { status: response.status, headers: response.headers, body: response.body.toString('utf8') };
    },
  };
}
