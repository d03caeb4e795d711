import type { PublishedQueryParam, PublishedRoute } from '@flowgate/contracts';
import { compileBodyValidator, type BodyValidator } from './body-validator';
import { checkedParams } from './query-check';
import type { RouteCache } from './response-cache';
import type { SignatureCheck } from './webhook-signature';

/** What a route checks before its flow runs; null on a route that checks nothing (the common case costs one comparison). */
export interface RouteInbound {
  /** Typed or required query parameters. */
  query: PublishedQueryParam[] | null;
  body: BodyValidator | null;
  signature: SignatureCheck | null;
  /** GET answers kept in Redis (response-cache.ts). */
  cache: RouteCache | null;
}

/** Built once per deployed version (reused across reloads with the prepared flow). */
export function routeInboundOf(route: PublishedRoute): RouteInbound | null {
  const query = checkedParams(Array.isArray(route.query_params) ? route.query_params : []);
  const body = route.body_schema != null && typeof route.body_schema === 'object' ? compileBodyValidator(route.body_schema) : null;
  const signature: SignatureCheck | null =
    route.signature == null
      ? null
      : { scheme: route.signature.scheme, secret: route.signature.secret, header: route.signature.header?.toLowerCase(), toleranceS: route.signature.tolerance_s };
  const cache: RouteCache | null =
    route.cache == null || route.method !== 'GET'
      ? null
      : { ttlMs: route.cache.ttl_s * 1000, varyQuery: route.cache.vary_query, varyHeaders: route.cache.vary_headers.map((name) => name.toLowerCase()), perKey: route.cache.per_key };
  return query === null && body === null && signature === null && cache === null ? null : { query, body, signature, cache };
}
