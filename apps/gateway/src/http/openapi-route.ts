import { apiKeyRecordKey, openApiKey, PREVIEW_SUFFIX, previewOpenApiKey } from '@flowgate/contracts';
import type { Logger } from '@flowgate/platform';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingMessage } from 'node:http';
import type { KeyFailureThrottle } from '../auth/key-failures';
import { presentedKey, refuseWrongKey, throttled } from '../auth/request-authenticator';
import type { LoadedProject } from '../config-cache/loaded-project';
import { WarningLimiter } from '../warning-limiter';
import { answerPreflight, preflightMethod } from './cors';
import { internalError, sendError } from './errors';
import { DOCUMENT_BYTES_PER_SECOND, DocumentPace } from './document-pace';
import type { GatewayResponse } from './gateway-response';

export const OPENAPI_PATH = '/_openapi.json';
const ALLOW = 'GET, HEAD, OPTIONS';
const JSON_TYPE = 'application/json; charset=utf-8';
const DOCUMENT_PACE_MESSAGE = `This API description is being fetched faster than the gateway sends it (${DOCUMENT_BYTES_PER_SECOND / 1024 / 1024} MB a second per project); retry shortly, or revalidate with If-None-Match`;

/** Where the writing of a document is counted as the project's loop time (isolation/flow-isolation.ts `answerInTurn`). */
export interface AnswerLoop {
  answerInTurn(res: GatewayResponse, write: () => void): Promise<void> | undefined;
}

/** The two reads this route makes (a single Redis and a Redis Cluster client both have them). */
export interface OpenApiRedis {
  get(key: string): Promise<string | null>;
  hmget(key: string, ...fields: string[]): Promise<Array<string | null>>;
}

/** A project's document as served: read once per publication, its entity tag worked out once. */
interface HeldDocument {
  /** The project's configuration it was read for: a publication builds a new one. */
  project: LoadedProject;
  /** The project's generation when it was read (a change of the description alone moves it). */
  generation: number;
  body: Buffer;
  etag: string;
}

/**
 * `GET {base_url}/_openapi.json`: the project's OpenAPI document as the control plane built it
 * at publication. Read from Redis once per publication (the configuration the gateway loaded
 * for that publication, or a change of the description alone: the project's name) and served
 * from memory with an `ETag`; `If-None-Match` with it answers 304 without a body. A fetch of a
 * large document thus costs one write of its bytes (nothing for a client that revalidates),
 * never a Redis read of them. Public unless Require Authentication is on; then any valid key
 * of the project, read without the key script, so fetching the description costs no request
 * of the key's limit. While Redis is away a document already held keeps being served. Full
 * answers are paced per project (document-pace.ts: 32 MB a second, a fetch waits its turn up to
 * a second, then 429) and written as the project's loop time (isolation/flow-isolation.ts).
 */
export class OpenApiRoute {
  private readonly held = new Map<string, HeldDocument>();
  /** What was derived from each held document (derivedFrom); goes with the document. */
  private readonly derived = new WeakMap<HeldDocument, { derive: (document: unknown) => unknown; value: unknown }>();
  /** Reads in progress: concurrent first fetches share one. */
  private readonly reading = new Map<string, Promise<HeldDocument | null>>();
  /** Per project, bumped when only its description changed (`descriptionChanged`): a read begun before is not kept. */
  private readonly generations = new Map<string, number>();
  private readonly redisWarning = new WarningLimiter(10_000);
  /** Full answers per project at most DOCUMENT_BYTES_PER_SECOND (document-pace.ts). */
  private readonly pace = new DocumentPace();

  constructor(
    private readonly redis: OpenApiRedis,
    private readonly logger: Logger,
    /** Wrong keys here count like anywhere else: `_openapi.json` is no way round the limit. */
    private readonly failures: KeyFailureThrottle,
    /**
     * A document of megabytes takes the loop milliseconds to write: that is the project's loop
     * time, and a project taking most of the loop writes it in a scheduled turn.
     */
    private readonly loop: AnswerLoop,
  ) {}

  /**
   * The control plane rewrote the project's description without a new publication (a rename),
   * or deleted the project; null: any project's may have changed (a missed message).
   */
  descriptionChanged(projectId: string | null): void {
    if (projectId === null) {
      for (const id of this.held.keys()) this.descriptionChanged(id);
      return;
    }
    this.held.delete(projectId);
    this.held.delete(`${projectId}${PREVIEW_SUFFIX}`);
    this.generations.set(projectId, (this.generations.get(projectId) ?? 0) + 1);
  }

  /** The project left the gateway's cache: the documents held for it go too (read again when asked). */
  forget(projectId: string): void {
    this.held.delete(projectId);
    this.held.delete(`${projectId}${PREVIEW_SUFFIX}`);
    this.pace.forget(projectId);
  }

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

  /** The project's document, parsed (the MCP server's tools); null when Redis has none. */
  /**
   * What `derive` makes of the project's document, worked out once per document held (a
   * publication replaces it): the MCP server's tools are read from it on every MCP request.
   */
  async derivedFrom<T>(project: LoadedProject, preview: boolean, derive: (document: unknown) => T): Promise<T> {
    const document = await this.documentOf(project, preview);
    if (document === null) return derive(null);
    const derived = this.derived.get(document);
    if (derived !== undefined && derived.derive === derive) return derived.value as T;
    const value = derive(JSON.parse(document.body.toString('utf8')) as unknown);
    this.derived.set(document, { derive, value });
    return value;
  }

  private async serve(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): Promise<void> {
    if (project.requireAuth && !(await this.keyAccepted(req, res, project.id))) return;
    let document: HeldDocument | null;
    try {
      document = await this.documentOf(project, res.preview);
    } catch (error) {
      document = this.held.get(slotOf(project, res.preview)) ?? null;
      if (document === null) return this.unavailable(res, error);
    }
    if (document === null) return this.unavailable(res, null);
    if (res.headersSent || res.writableEnded) return;
    const headers = { etag: document.etag, 'cache-control': 'no-cache' };
    if (matches(req.headers['if-none-match'], document.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (req.method !== 'HEAD') {
      const wait = this.pace.book(project.id, document.body.length);
      if (wait === null) return sendError(res, 'rate_limited', DOCUMENT_PACE_MESSAGE, { 'retry-after': '1' });
      if (wait > 0) await sleep(wait);
      if (res.destroyed) return;
    }
    res.writeHead(200, { ...headers, 'content-type': JSON_TYPE, 'content-length': document.body.length });
    if (req.method === 'HEAD') return void res.end();
    const { body } = document;
    await this.loop.answerInTurn(res, () => res.end(body));
  }

  /**
   * The held document when it is still the project's; else one read from Redis (shared by
   * concurrent fetches). The preview address (its own copy of the project, requireAuth set)
   * has a document of its own: the drafts it serves.
   */
  private documentOf(project: LoadedProject, preview: boolean): Promise<HeldDocument | null> | HeldDocument {
    const slot = slotOf(project, preview);
    const generation = this.generations.get(project.id) ?? 0;
    const held = this.held.get(slot);
    if (held !== undefined && held.project === project && held.generation === generation) return held;
    let reading = this.reading.get(slot);
    if (reading === undefined) {
      reading = this.read(project, generation, preview).finally(() => this.reading.delete(slot));
      this.reading.set(slot, reading);
    }
    return reading;
  }

  private async read(project: LoadedProject, generation: number, preview: boolean): Promise<HeldDocument | null> {
    const text = await this.redis.get(preview ? previewOpenApiKey(project.id) : openApiKey(project.id));
    if (text === null) return null;
    const body = Buffer.from(text);
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    const document: HeldDocument = { project, generation, body, etag };
    if ((this.generations.get(project.id) ?? 0) === generation) this.held.set(slotOf(project, preview), document);
    return document;
  }
  /** Any key of the project (user or admin); answers the refusal itself. */
  async keyAccepted(req: IncomingMessage, res: GatewayResponse, projectId: string): Promise<boolean> {
    const key = presentedKey(req, res);
    if (key === null || throttled(this.failures, req, res, projectId, key)) return false;
    const hash = createHash('sha256').update(key).digest('hex');
    let record: Array<string | null>;
    try {
      record = await this.redis.hmget(apiKeyRecordKey(projectId, hash), 'project_id', 'id');
    } catch (error) {
      this.unavailable(res, error);
      return false;
    }
    if (record[0] !== projectId) {
      await refuseWrongKey(this.failures, req, res, projectId);
      return false;
    }
    this.failures.accepted(key);
    res.keyId = record[1] ?? null;
    return true;
  }

  private unavailable(res: GatewayResponse, error: unknown): void {
    if (error !== null && this.redisWarning.due()) this.logger.warn({ err: error }, 'API description could not be read from Redis');
    sendError(res, 'unavailable', 'The API description cannot be read right now; retry shortly', { 'retry-after': '1' });
  }
}

/** `If-None-Match`: `*`, or a list of tags one of which is ours (weak or not). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Where a document is held: the project's id, or its id with `--preview` for the preview address's. */
const slotOf = (project: LoadedProject, preview: boolean): string => (preview ? `${project.id}${PREVIEW_SUFFIX}` : project.id);
