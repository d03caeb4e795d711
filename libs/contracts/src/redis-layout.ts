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
 * | fg:config-seq                 | string | control plane  | INCR on every change; gateways poll it to catch missed pub/sub messages |
 * | fg:sub:<subdomain>            | string | control plane  | project id serving that subdomain (lowercase); the document's `subdomain` is authoritative |
 * | fg:project:{<pid>}            | string | control plane  | JSON `PublishedProject` (project, integrations, live routes with compiled flows) |
 * | fg:openapi:{<pid>}            | string | control plane  | the project's OpenAPI 3.1 document (JSON), written with its document |
 * | fg:openapi-preview:{<pid>}    | string | control plane  | the same for the preview address (the drafts), written with its document |
 * | fg:fresh:{<pid>}              | string | control plane  | the document's revision, written with it: requests that must see the newest secrets or drafts read it |
 * | fg:deleted:{<pid>}            | string | control plane  | deletion marker: the project was deleted (a missing document without it = lost state) |
 * | fg:key:{<pid>}:<sha256 hex>   | hash   | control plane  | `PublishedApiKey` fields; gateway script adds `last_used_ms` |
 * | fg:rate:{<pid>}:<sha256 hex>  | list   | gateway script | sliding-window log of accepted request times (ms, newest first) for that key |
 * | fg:image:<id>                 | string | gateway        | PNG bytes of a manipulate_image result, with a TTL |
 *
 * Pub/sub channel `fg:changes` carries JSON `ConfigChange` after the write is done.
 */
export const REDIS_PREFIX = 'fg:';
export const EPOCH_KEY = 'fg:epoch';
export const CONFIG_SEQ_KEY = 'fg:config-seq';
export const CHANGES_CHANNEL = 'fg:changes';

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
}

export interface PublishedRoute {
  endpoint_id: string;
  name: string;
  method: HttpMethod;
  /** Normalised path, leading slash, no trailing slash, e.g. `/orders`. */
  path: string;
  auth: EndpointAuth;
  query_params: PublishedQueryParam[];
  version: number;
  /** The flow engine's `CompiledFlow` (plain JSON). */
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
