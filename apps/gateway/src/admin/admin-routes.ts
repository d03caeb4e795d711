import type { Logger } from '@flowgate/platform';
import type { IncomingMessage } from 'node:http';
import type { RequestAuthenticator } from '../auth/request-authenticator';
import type { LoadedProject } from '../config-cache/loaded-project';
import { internalError, refuseBody, sendError } from '../http/errors';
import { sendJson, type GatewayResponse } from '../http/gateway-response';
import { parseBody, readRawBody } from '../http/request-body';
import { ControlPlaneUnavailableError, type ControlPlaneClient, type RelayedAnswer } from './control-plane-client';

const COLLECTION = '/admin/api-keys';

/**
 * `POST /admin/api-keys` and `DELETE /admin/api-keys/:id` on a project's own address: admin
 * keys of that project only, relayed to the control plane, whose status and JSON body are
 * passed through unchanged. The control plane writes PostgreSQL and Redis before it answers,
 * so a deleted key fails on the next request on every gateway.
 */
export class AdminRoutes {
  constructor(
    private readonly auth: RequestAuthenticator,
    private readonly controlPlane: ControlPlaneClient,
    private readonly maxBodyBytes: number,
    private readonly logger: Logger,
  ) {}

  /** `path` starts with `/admin/`. */
  handle(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, path: string): void {
    const target = adminTarget(path);
    if (target === null) return notFound(res, path);
    if (target === COLLECTION_TARGET) {
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      this.create(req, res, project).catch((error: unknown) => internalError(res, this.logger, error));
      return;
    }
    if (req.method !== 'DELETE') return methodNotAllowed(res, 'DELETE');
    let keyId: string;
    try {
      keyId = decodeURIComponent(target.slice(1));
    } catch {
      return notFound(res, path);
    }
    this.delete(req, res, project, keyId).catch((error: unknown) => internalError(res, this.logger, error));
  }

  /** The methods served at an admin path (`POST` or `DELETE`), null where nothing is (→ 404). */
  allowedMethods(path: string): string | null {
    const target = adminTarget(path);
    if (target === null) return null;
    return target === COLLECTION_TARGET ? 'POST' : 'DELETE';
  }

  private async create(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): Promise<void> {
    if (!(await this.auth.authenticate(req, res, project.id, 2))) return;
    const raw = await readRawBody(req, this.maxBodyBytes);
    if (!Buffer.isBuffer(raw)) return refuseBody(res, raw.code, raw.message);
    const body = parseBody(raw, req.headers['content-type']);
    if (!body.ok) return refuseBody(res, body.code, body.message);
    await this.relay(res, () => this.controlPlane.createApiKey(project.id, JSON.stringify(body.value ?? {})));
  }

  private async delete(req: IncomingMessage, res: GatewayResponse, project: LoadedProject, keyId: string): Promise<void> {
    if (!(await this.auth.authenticate(req, res, project.id, 2))) return;
    await this.relay(res, () => this.controlPlane.deleteApiKey(project.id, keyId));
  }

  private async relay(res: GatewayResponse, call: () => Promise<RelayedAnswer>): Promise<void> {
    try {
      const answer = await call();
      res.errorCode = answer.code;
      sendJson(res, answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof ControlPlaneUnavailableError)) throw error;
      this.logger.warn({ err: error }, 'admin API relay failed');
      sendError(res, 'unavailable', 'API keys cannot be managed right now; retry shortly', { 'retry-after': '5' });
    }
  }
}

const COLLECTION_TARGET = '';

/** `/admin/api-keys` → `''`, `/admin/api-keys/<id>` → `/<id>` (trailing slashes ignored), else null. */
function adminTarget(path: string): string | null {
  if (!path.startsWith(COLLECTION)) return null;
  const rest = path.slice(COLLECTION.length).replace(/\/+$/, '');
  if (rest === COLLECTION_TARGET) return rest;
  if (rest.charCodeAt(0) !== 47 || rest.indexOf('/', 1) !== -1) return null;
  return rest;
}

function notFound(res: GatewayResponse, path: string): void {
  sendError(res, 'endpoint_not_found', `No endpoint at ${path}`);
}

function methodNotAllowed(res: GatewayResponse, allow: string): void {
  sendError(res, 'method_not_allowed', `This path accepts ${allow} only`, { allow });
}
