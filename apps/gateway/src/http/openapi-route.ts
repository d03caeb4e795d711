import { apiKeyRecordKey, openApiKey, previewOpenApiKey } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { invalidKey, presentedKey } from '../auth/request-authenticator';
import type { LoadedProject } from '../config-cache/loaded-project';
import { Throttle } from '../throttle';
import { answerPreflight, preflightMethod } from './cors';
import { internalError, sendError } from './errors';
import type { GatewayResponse } from './gateway-response';

export const OPENAPI_PATH = '/_openapi.json';
const ALLOW = 'GET, HEAD, OPTIONS';
const JSON_TYPE = 'application/json; charset=utf-8';

/** The two reads this route makes (a single Redis and a Redis Cluster client both have them). */
export interface OpenApiRedis {
  get(key: string): Promise<string | null>;
  hmget(key: string, ...fields: string[]): Promise<Array<string | null>>;
}

/**
 * `GET {base_url}/_openapi.json`: the project's OpenAPI document as the control plane published
 * it. Read from Redis on every request (it is not on the hot path), so the document a client
 * gets after a deploy, undeploy or rollback answered is the new one, on every gateway. Public
 * unless Require Authentication is on; then any valid key of the project, read without the
 * key script, so fetching the description costs no request of the key's limit.
 */
export class OpenApiRoute {
  /** The last copy read per project: served while Redis is away (public projects only). */
  private readonly lastRead = new Map<string, string>();
  private readonly redisWarning = new Throttle(10_000);

  constructor(
    private readonly redis: OpenApiRedis,
    private readonly logger: Logger,
  ) {}

  handle(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): void {
    const method = req.method;
    if (method === 'OPTIONS') {
      if (preflightMethod(req) !== undefined) return answerPreflight(req, res, 'GET');
      res.writeHead(204, { allow: ALLOW });
      res.end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') return sendError(res, 'method_not_allowed', `${OPENAPI_PATH} accepts GET`, { allow: ALLOW });
    this.serve(req, res, project).catch((error: unknown) => internalError(res, this.logger, error));
  }

  private async serve(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): Promise<void> {
    if (project.requireAuth && !(await this.keyAccepted(req, res, project.id))) return;
    let document: string | null;
    try {
      // The preview address describes the drafts it serves (its copy has requireAuth set).
      document = await this.redis.get(res.preview ? previewOpenApiKey(project.id) : openApiKey(project.id));
    } catch (error) {
      document = project.requireAuth ? null : (this.lastRead.get(project.id) ?? null);
      if (document === null) return this.unavailable(res, error);
    }
    if (document === null) return this.unavailable(res, null);
    if (!res.preview) this.lastRead.set(project.id, document);
    if (res.headersSent || res.writableEnded) return;
    res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(document), 'cache-control': 'no-cache' });
    res.end(document);
  }

  /** Any key of the project (user or admin); answers the refusal itself. */
  private async keyAccepted(req: IncomingMessage, res: GatewayResponse, projectId: string): Promise<boolean> {
    const key = presentedKey(req, res);
    if (key === null) return false;
    const hash = createHash('sha256').update(key).digest('hex');
    let record: Array<string | null>;
    try {
      record = await this.redis.hmget(apiKeyRecordKey(projectId, hash), 'project_id', 'id');
    } catch (error) {
      this.unavailable(res, error);
      return false;
    }
    if (record[0] !== projectId) {
      invalidKey(res);
      return false;
    }
    res.keyId = record[1] ?? null;
    return true;
  }

  private unavailable(res: GatewayResponse, error: unknown): void {
    if (error !== null && this.redisWarning.ready()) this.logger.warn({ err: error }, 'API description could not be read from Redis');
    sendError(res, 'unavailable', 'The API description cannot be read right now; retry shortly', { 'retry-after': '1' });
  }
}
