import { ERROR_STATUS, openSecrets, type ErrorCode } from '@flowgate/contracts';
import { createLogger, flowLimitsOf, SecretBox, type Logger } from '@flowgate/platform';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { AdminRoutes } from './admin/admin-routes';
import { ControlPlaneClient } from './admin/control-plane-client';
import { ApiKeyVerifier } from './auth/api-key-verifier';
import { KeyFailureThrottle } from './auth/key-failures';
import { RequestAuthenticator } from './auth/request-authenticator';
import type { GatewayConfig } from './config';
import { loadProject } from './config-cache/loaded-project';
import { ProjectCache } from './config-cache/project-cache';
import { buildFlowPorts, createFlowPortsContext } from './integrations/flow-ports';
import { createGatewayRedis } from './gateway-redis';
import { ResponseCache } from './inbound/response-cache';
import { McpRoute } from './mcp/mcp-route';
import { refuseConnect } from './http/connect-method';
import { drainingServers, GatewayResponse } from './http/gateway-response';
import { HostResolver } from './http/host-resolver';
import { InternalRoutes } from './http/internal-routes';
import { FlowIsolation } from './isolation/flow-isolation';
import { OpenApiRoute } from './http/openapi-route';
import { endSocketWithError } from './http/raw-answer';
import { GatewayMetrics } from './gateway.metrics';
import { RequestHandler } from './request-handler';
import type { LogBatchSender } from './request-log/log-batch-sender';
import { RequestLogBuffer } from './request-log/request-log-buffer';
import type { RequestLogSink } from './request-log/request-log-sink';
import { WorkerRequestLog } from './request-log/worker-request-log';

export interface GatewayOptions {
  logger?: Logger;
  /** Buffers in this thread and sends through this instead of the Kafka worker (tests). */
  logSender?: LogBatchSender;
  /** Process metrics (CPU, memory, event loop) in `/_metrics`; on in `main.ts`. */
  defaultMetrics?: boolean;
  /** How long `close()` keeps trying to hand buffered request-log events to Kafka (default 10 s). */
  logFlushTimeoutMs?: number;
}

export interface Gateway {
  server: http.Server<typeof http.IncomingMessage, typeof GatewayResponse>;
  /** `http://127.0.0.1:<port>` — send `Host: <subdomain>.<GATEWAY_DOMAIN>` to reach a project. */
  url: string;
  port: number;
  metrics: GatewayMetrics;
  logs: RequestLogSink;
  cache: ProjectCache;
  /** Stops accepting, finishes in-flight requests, flushes the request log, closes clients. */
  close(): Promise<void>;
}

/** Long enough for slow uploads of the largest body, short enough that a stalled client is dropped. */
const REQUEST_TIMEOUT_MS = 60_000;
export const HEADERS_TIMEOUT_MS = 15_000;
/**
 * How often node:http looks for connections past those timeouts. Its default, 30 s, let a
 * socket sending its headers slowly live up to 45 s; once a second, the scan of the open
 * connections costs microseconds.
 */
export const TIMEOUT_CHECK_MS = 1_000;
/** In-flight requests get this long at shutdown before their connections are cut. */
const DRAIN_MS = 10_000;
/**
 * At shutdown, an idle keep-alive connection is kept this long: a request its client sent just
 * before (already on the wire) is still answered, with `Connection: close`, instead of the
 * connection being reset under it.
 */
const IDLE_GRACE_MS = 1_000;
export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL);
  // Single Redis or Redis Cluster (REDIS_CLUSTER_NODES), see gateway-redis.ts.
  const redisClients = createGatewayRedis(config, logger);
  const { commands: redis, subscriber, keyChecks } = redisClients;

  const logs: RequestLogSink = options.logSender
    ? new RequestLogBuffer({ sender: options.logSender, logger, maxEvents: config.GATEWAY_LOG_BUFFER_MAX, lingerMs: config.GATEWAY_LOG_LINGER_MS })
    : new WorkerRequestLog(
        {
          brokers: config.KAFKA_BROKERS,
          topic: config.KAFKA_LOG_TOPIC,
          clientId: 'flowgate-gateway',
          logLevel: config.LOG_LEVEL,
          maxEvents: config.GATEWAY_LOG_BUFFER_MAX,
          lingerMs: config.GATEWAY_LOG_LINGER_MS,
          compression: config.GATEWAY_LOG_COMPRESSION,
        },
        logger,
      );
  const metrics = new GatewayMetrics(
    { logBufferDepth: () => logs.depth, logEventsDropped: () => logs.dropped },
    { defaultMetrics: options.defaultMetrics },
  );
  const keyFailures = new KeyFailureThrottle(redis, { perMinute: config.KEY_FAILURES_PER_MINUTE, trustProxy: config.GATEWAY_TRUST_PROXY });
  const isolation = new FlowIsolation({ limits: flowLimitsOf(config), flowTimeoutMs: config.FLOW_TIMEOUT_MS, heapHighPercent: config.GATEWAY_HEAP_HIGH_PERCENT });
  const openApi = new OpenApiRoute(redis, logger, keyFailures, isolation);
  const secretBox = new SecretBox(config.FLOWGATE_ENCRYPTION_KEY, [config.FLOWGATE_ENCRYPTION_KEY_PREVIOUS]);
  const portsContext = createFlowPortsContext({ config, redis, secrets: secretBox, logger });
  const cache = new ProjectCache({
    redis,
    subscriber,
    logger,
    pollMs: config.GATEWAY_CONFIG_POLL_MS,
    maxBytes: config.GATEWAY_PROJECT_CACHE_MB * 1024 * 1024,
    onLookup: (kind, hit) => metrics.cacheLookup(kind, hit),
    onDescriptionChanged: (projectId) => openApi.descriptionChanged(projectId),
    // What is kept per project outside the cache follows its bound.
    onDropped: (projectId) => {
      isolation.forget(projectId);
      openApi.forget(projectId);
    },
    build: (published, previous) => {
      let ports = {};
      try {
        ports = buildFlowPorts(published, portsContext.deps);
      } catch (error) {
        logger.error({ err: error, project_id: published.id }, 'flow ports could not be built; integrations are skipped');
      }
      // Opened here, once per configuration load; the values live in this process's memory only.
      const secrets = openSecrets(published.secrets, (sealed) => {
        const opened = secretBox.open(sealed);
        if (opened === null) logger.error({ project_id: published.id }, 'a project secret cannot be decrypted (FLOWGATE_ENCRYPTION_KEY differs from the control plane?); flows reading it fail');
        return opened?.plaintext ?? null;
      });
      return loadProject(published, {
        ports,
        secrets,
        previous,
        onRouteError: (route, error) =>
          logger.error(
            { err: error, project_id: published.id, endpoint_id: route.endpoint_id },
            'published flow could not be prepared; the endpoint answers 500 flow_error',
          ),
        onFunctionError: (fn, error) =>
          logger.error({ err: error, project_id: published.id, function_id: fn.function_id }, 'published function could not be prepared; its callers fail naming it'),
      });
    },
  });

  let accepting = false;
  const auth = new RequestAuthenticator(new ApiKeyVerifier(keyChecks), metrics, logger, keyFailures);
  const mcp = new McpRoute(openApi, logger, config.GATEWAY_TRUST_PROXY);
  const handler = new RequestHandler({
    hosts: new HostResolver(config.GATEWAY_DOMAIN),
    cache,
    auth,
    admin: new AdminRoutes(
      auth,
      new ControlPlaneClient(config.CONTROL_PLANE_INTERNAL_URL, config.FLOWGATE_SERVICE_TOKEN),
      config.GATEWAY_MAX_BODY_BYTES,
      logger,
    ),
    openApi,
    internal: new InternalRoutes({
      registry: metrics.registry,
      redis,
      logger,
      isAccepting: () => accepting,
      logBufferDepth: () => logs.depth,
    }),
    logs,
    metrics,
    logger,
    maxBodyBytes: config.GATEWAY_MAX_BODY_BYTES,
    isolation,
    responseCache: new ResponseCache(redis, config.PROJECT_MAX_CACHE_BYTES, logger, config.GATEWAY_ANSWER_CACHE_MB * 1024 * 1024),
    mcp,
  });

  const server = http.createServer<typeof http.IncomingMessage, typeof GatewayResponse>(
    {
      ServerResponse: GatewayResponse,
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      // Node would answer a missing Host with an empty 400; the handler answers it as JSON.
      requireHostHeader: false,
    },
    handler.handle,
  );
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);

  const closeClients = (): Promise<void> => redisClients.close();

  try {
    await redisClients.connect();
    await cache.start();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.GATEWAY_PORT, config.GATEWAY_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    cache.stop();
    isolation.close();
    await closeClients();
    await logs.close(0);
    throw error;
  }
  accepting = true;
  const { port, address } = server.address() as AddressInfo;
  // Tool calls of MCP clients are requests to this server; a wildcard address is reached on loopback.
  mcp.listeningOn({ host: address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address, port });

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      accepting = false;
      await drain(server);
      cache.stop();
      isolation.close();
      await logs.close(options.logFlushTimeoutMs ?? 10_000);
      await portsContext.close();
      mcp.close();
      await closeClients();
    })();
    return closing;
  };

  return { server, url: `http://127.0.0.1:${port}`, port, metrics, logs, cache, close };
}

/**
 * Stops listening and lets every open connection end on its own: each answer from now on says
 * `Connection: close`, idle connections are closed after IDLE_GRACE_MS (a client sending on one
 * meanwhile is answered, not reset), and whatever is still open after DRAIN_MS is cut. Node's
 * own `server.close()` would close the idle connections at once, resetting a request that was
 * already on its way on one of them.
 */
function drain(server: http.Server<typeof http.IncomingMessage, typeof GatewayResponse>): Promise<void> {
  return new Promise<void>((resolve) => {
    // Answers being prepared (sendJson) and requests still to come on open connections.
    drainingServers.add(server);
    server.prependListener('request', (_req: http.IncomingMessage, res: GatewayResponse) => {
      res.shouldKeepAlive = false;
    });
    const idle = setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS);
    const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
    // net.Server's close: stop accepting; the callback runs once the last connection ended.
    net.Server.prototype.close.call(server, () => {
      drainingServers.delete(server);
      clearTimeout(idle);
      clearTimeout(force);
      resolve();
    });
  });
}

/** Unparseable requests get the usual error body (never Node's plain-text default), then the socket closes. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inResponse = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || inResponse) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers_too_large', 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'The request was not received in time']
        : ['invalid_request', 'Malformed HTTP request'];
  endSocketWithError(socket, ERROR_STATUS[code], code, message);
}
