import type { DataColumn } from './data-tables';

/**
 * The Redis layout: the contract between the control plane (the only writer) and the
 * gateways (readers). Every key starts with `fg:`. Everything of one project (its document,
 * key records, rate-limit windows, deletion marker) carries the project's `{hash tag}`, so on
 * a Redis Cluster it lives in one slot: a publication is one MULTI, the key script touches
 * one slot, and a shard that lost its state lost whole projects (their documents missing is
 * how the control plane notices, see docs/operations.md "Redis Cluster").
 *
 * | key                           | type   | written by     | content                                         |
 * |-------------------------------|--------|----------------|-------------------------------------------------|
 * | fg:epoch                      | string | control plane  | random id of the last full publication; missing → Redis lost state, republish all |
 * | fg:config-seq                 | string | control plane  | INCR on every announcement, whose message carries the value as `seq`; gateways poll it to catch missed messages |
 * | fg:published-with             | string | control plane  | fingerprint of what documents were sealed and addressed with (encryption key, public URL); a change rewrites every document |
 * | fg:sub:<subdomain>            | string | control plane  | project id serving that subdomain (lowercase); the document's `subdomain` is authoritative |
 * | fg:project:{<pid>}            | string | control plane  | JSON `PublishedProject` (project, integrations, live routes and functions with compiled flows) |
 * | fg:openapi:{<pid>}            | string | control plane  | the project's OpenAPI 3.1 document (JSON), written with its document |
 * | fg:openapi-preview:{<pid>}    | string | control plane  | the same for the preview address (the drafts), written with its document |
 * | fg:fresh:{<pid>}              | string | control plane  | the document's revision, written with it: requests that must see the newest secrets or drafts read it |
 * | fg:deleted:{<pid>}            | string | control plane  | deletion marker: the project was deleted (a missing document without it = lost state) |
 * | fg:key:{<pid>}:<sha256 hex>   | hash   | control plane  | `PublishedApiKey` fields; gateway script adds `last_used_ms` |
 * | fg:schedule-running:{<pid>}:<sid> | string | worker       | the job id of a schedule's run going on (expires after SCHEDULE_TIMEOUT_MS and a margin) |
 * | fg:rate:{<pid>}:<sha256 hex>  | list   | gateway script | sliding-window log of accepted request times (ms, newest first) for that key |
 * | fg:image:<id>                 | string | gateway        | PNG bytes of a manipulate_image result, with a TTL |
 *
 * Pub/sub channel `fg:changes` carries JSON `ConfigChange` after the write is done.
 */
export const REDIS_PREFIX = 'fg:';
export const EPOCH_KEY = 'fg:epoch';
export const CONFIG_SEQ_KEY = 'fg:config-seq';
export const CHANGES_CHANNEL = 'fg:changes';
export const PUBLISHED_WITH_KEY = 'fg:published-with';

/**
 * How every `fg:changes` message is sent: `EVAL ANNOUNCE_SCRIPT 1 fg:config-seq fg:changes
 * <ConfigChange JSON>` increments `fg:config-seq` and publishes the change with `seq`, the new
 * value, in one step, so a gateway that polls the counter can tell a missed message (a number
 * it never received) from one still on its way.
 */
export const ANNOUNCE_SCRIPT = `local seq = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], string.sub(ARGV[2], 1, -2) .. ',"seq":' .. seq .. '}')
return seq`;

export const subdomainKey = (subdomain: string): string => `fg:sub:${subdomain.toLowerCase()}`;
export const projectKey = (projectId: string): string => `fg:project:{${projectId}}`;
export const openApiKey = (projectId: string): string => `fg:openapi:{${projectId}}`;
export const previewOpenApiKey = (projectId: string): string => `fg:openapi-preview:{${projectId}}`;
/**
 * The revision of the project's document, set in the same MULTI. A gateway reads it on each
 * request that must not run on a stale copy (a flow that reads secrets, every preview request):
 * a higher value than its copy's makes it re-read the document first, so a secret change or a
 * Save is seen by the next request on every gateway, like a deleted key.
 */
export const freshnessKey = (projectId: string): string => `fg:fresh:{${projectId}}`;
export const projectDeletedKey = (projectId: string): string => `fg:deleted:{${projectId}}`;
export const apiKeyRecordKey = (projectId: string, keyHash: string): string => `fg:key:{${projectId}}:${keyHash}`;
export const rateLimitKey = (projectId: string, keyHash: string): string => `fg:rate:{${projectId}}:${keyHash}`;
/** How long the deletion marker stays: far longer than any gateway takes to notice (it polls every 0.5 s). */
export const PROJECT_DELETED_TTL_SECONDS = 7 * 24 * 3600;
export const imageKey = (imageId: string): string => `fg:image:${imageId}`;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type EndpointAuth = 'none' | 'user' | 'admin';
export type KeyPermission = 'user' | 'admin';

export interface PublishedQueryParam {
  key: string;
  default: string | null;
  /** Absent: `string` (documents of control planes older than typed inputs). */
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'enum';
  required?: boolean;
  values?: string[];
}

export interface PublishedRoute {
  endpoint_id: string;
  name: string;
  method: HttpMethod;
  /** Normalised path, leading slash, no trailing slash, e.g. `/orders`. */
  path: string;
  auth: EndpointAuth;
  query_params: PublishedQueryParam[];
  /** The flow engine's `BodySchema` (JSON Schema subset); absent or null: any body. */
  body_schema?: unknown;
  /** `{scheme, secret (a secret's name), header?, tolerance_s}`; absent or null: unsigned. */
  signature?: { scheme: 'stripe' | 'github' | 'slack' | 'standard_webhooks' | 'hmac_sha256'; secret: string; header?: string; tolerance_s: number } | null;
  /** `{ttl_s, vary_query, vary_headers, per_key}`; absent or null: answers are not cached. */
  cache?: { ttl_s: number; vary_query: boolean; vary_headers: string[]; per_key: boolean } | null;
  version: number;
  /** The flow engine's `CompiledFlow` (plain JSON). */
  compiled: unknown;
}

/** A function as gateways receive it: the compiled flow that Call Function blocks with its id run. */
export interface PublishedFunction {
  function_id: string;
  name: string;
  /** The live version; 0 for a draft (`preview_functions`). */
  version: number;
  /** The flow engine's `CompiledFlow` (with its `inputs`). */
  compiled: unknown;
}

/** Secrets stay encrypted (AES-256-GCM, FLOWGATE_ENCRYPTION_KEY); gateways decrypt on load. */
export interface PublishedIntegrations {
  text_generation: { provider: 'anthropic'; api_key_encrypted: string; default_model: string | null } | null;
  email: { provider: 'sendgrid'; api_key_encrypted: string; verified_domains: string[] } | null;
}

/** A secret as gateways receive it: values sealed (AES-256-GCM, FLOWGATE_ENCRYPTION_KEY), opened in memory only. */
export interface PublishedSecret {
  name: string;
  value_encrypted: string;
  /** Used on the preview address when set. */
  preview_value_encrypted: string | null;
}

/** A data table as flows use it: the storage name comes from `id`, never from `name`. */
export interface PublishedDataTable {
  id: string;
  name: string;
  columns: DataColumn[];
}

export interface PublishedProject {
  id: string;
  subdomain: string;
  require_auth: boolean;
  /** Monotonic per project; gateways drop cached copies with a lower value. */
  revision: number;
  integrations: PublishedIntegrations;
  routes: PublishedRoute[];
  /** Absent in documents of a control plane older than secrets: none. */
  secrets?: PublishedSecret[];
  /** The saved drafts without error diagnostics, served on `{subdomain}--preview` (`version` 0). */
  preview_routes?: PublishedRoute[];
  /** The project's data tables (absent in documents of older control planes: none). */
  tables?: PublishedDataTable[];
  /** The live versions of the project's functions, called by the live routes (absent: none). */
  functions?: PublishedFunction[];
  /** The saved function drafts without error diagnostics, called on the preview address (absent: none). */
  preview_functions?: PublishedFunction[];
  /** The live versions of the project's schedules, which the worker runs (absent: none). */
  schedules?: PublishedSchedule[];
}

/** A schedule's live version as the worker runs it. */
export interface PublishedSchedule {
  schedule_id: string;
  name: string;
  version: number;
  /** The flow engine's `CompiledFlow`. */
  compiled: unknown;
}

/** Hash fields of `fg:key:{hash}` (all strings in Redis). */
export interface PublishedApiKey {
  id: string;
  project_id: string;
  permission: KeyPermission;
  ratelimit_min: number;
}

/** `{subdomain}--preview.{GATEWAY_DOMAIN}`: the host label suffix of the preview address. */
export const PREVIEW_SUFFIX = '--preview';
export const previewSubdomain = (subdomain: string): string => `${subdomain}${PREVIEW_SUFFIX}`;

export type ConfigChange =
  | { type: 'project'; project_id: string; revision: number }
  | { type: 'project_deleted'; project_id: string }
  /** Only the project's OpenAPI document changed (a rename): gateways drop the copy they hold. */
  | { type: 'description'; project_id: string }
  | { type: 'republish'; epoch: string };

/** A `ConfigChange` as received: `seq` is the `fg:config-seq` value of its announcement (absent from older control planes). */
export type AnnouncedChange = ConfigChange & { seq?: number };
