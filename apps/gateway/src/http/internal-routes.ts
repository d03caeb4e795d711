import type { Logger, RedisClient } from '@flowgate/platform';
import type { IncomingMessage } from 'node:http';
import type { Registry } from 'prom-client';
import { handleImageRequest } from '../integrations/images-route';
import { internalError } from './errors';
import { sendJson, type GatewayResponse } from './gateway-response';

export interface InternalRoutesDeps {
  registry: Registry;
  redis: RedisClient;
  logger: Logger;
  /** Readiness: false while starting and once shutdown began. */
  isAccepting(): boolean;
  logBufferDepth(): number;
}

/**
 * Paths under `/_` answered on any Host: `/_healthz`, `/_readyz`, `/_metrics`, and the
 * image results at `/_images/*`. Endpoint paths cannot start with `_`, so nothing is shadowed.
 */
export class InternalRoutes {
  constructor(private readonly deps: InternalRoutesDeps) {}

  /** True when the request was one of these (and is answered). */
  handle(req: IncomingMessage, res: GatewayResponse, url: string): boolean {
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    switch (path) {
      case '/_healthz':
        sendJson(res, 200, '{"status":"ok"}');
        return true;
      case '/_readyz': {
        const ready = this.deps.isAccepting();
        const body = {
          status: ready ? 'ready' : 'not_ready',
          // Informational: without Redis the gateway still serves public endpoints from its cache.
          redis: this.deps.redis.status === 'ready' ? 'up' : 'down',
          log_buffer_depth: this.deps.logBufferDepth(),
        };
        sendJson(res, ready ? 200 : 503, JSON.stringify(body));
        return true;
      }
      case '/_metrics':
        this.deps.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': this.deps.registry.contentType });
            res.end(text);
          },
          (error: unknown) => internalError(res, this.deps.logger, error),
        );
        return true;
      default:
        if (path.startsWith('/_images/')) {
          handleImageRequest(req, res, this.deps.redis).catch((error: unknown) => internalError(res, this.deps.logger, error));
          return true;
        }
        return false;
    }
  }
}
