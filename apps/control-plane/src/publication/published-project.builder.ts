import type {
  DataColumn,
  EndpointAuth,
  HttpMethod,
  PublishedApiKey,
  PublishedFunction,
  PublishedIntegrations,
  PublishedProject,
  PublishedQueryParam,
  PublishedRoute,
  PublishedSecret,
} from '@flowgate/contracts';

/** An endpoint's settings as PostgreSQL holds them: of a deployed version, or of a draft (preview-routes.ts). */
export interface EndpointRow {
  endpointId: string;
  name: string;
  method: HttpMethod;
  path: string;
  auth: EndpointAuth;
  queryParams: unknown;
  /** `{body_schema?, signature?, cache?}` as stored (absent: none). */
  options?: unknown;
}

/** What PostgreSQL holds about one project's serving state (read under the project's lock). */
export interface ProjectServingState {
  id: string;
  /** The project's name: the title of its API description. */
  name: string;
  subdomain: string;
  requireAuth: boolean;
  revision: number;
  integrations: Array<{ kind: 'text_generation' | 'email'; provider: string; secretEncrypted: string; settings: unknown }>;
  routes: Array<EndpointRow & { version: number; compiled: unknown }>;
  keys: Array<{ id: string; keyHash: string; permission: 'user' | 'admin'; ratelimitMin: number }>;
  secrets: Array<{ id: string; name: string; valueEncrypted: string; previewValueEncrypted: string | null }>;
  /** The saved drafts that compile without error (preview-routes.ts), in the shape of `routes`. */
  previewRoutes: ProjectServingState['routes'];
  /** The data tables; `columns` as stored (`DataColumn[]`). */
  tables: Array<{ id: string; name: string; columns: unknown }>;
  /** The live versions of the functions. */
  functions: FunctionRow[];
  /** The saved function drafts that compile without error (preview-routes.ts), `version` 0. */
  previewFunctions: FunctionRow[];
  /** The live versions of the schedules (the worker runs them). */
  schedules: Array<{ scheduleId: string; name: string; version: number; compiled: unknown }>;
}

/** A function's compiled flow as PostgreSQL holds it (of its live version, or compiled from its draft). */
export interface FunctionRow {
  functionId: string;
  name: string;
  version: number;
  compiled: unknown;
}

const publishedFunctionsOf = (rows: readonly FunctionRow[]): PublishedFunction[] =>
  [...rows]
    .sort((a, b) => a.functionId.localeCompare(b.functionId))
    .map((row) => ({ function_id: row.functionId, name: row.name, version: row.version, compiled: row.compiled }));

/** An integration's settings as stored (JSON), each with its default: the text-generation model, the email sender domains. */
export function integrationSettingsOf(settings: unknown): { default_model: string | null; verified_domains: string[] } {
  const stored = settings !== null && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Record<string, unknown>) : {};
  return {
    default_model: typeof stored.default_model === 'string' ? stored.default_model : null,
    verified_domains: Array.isArray(stored.verified_domains) ? stored.verified_domains.map(String) : [],
  };
}

const queryParamsOf = (value: unknown): PublishedQueryParam[] =>
  Array.isArray(value)
    ? value.map((param: PublishedQueryParam) => {
        const published: PublishedQueryParam = { key: param.key, default: param.default ?? null };
        if (param.type !== undefined && param.type !== 'string') published.type = param.type;
        if (param.required === true) published.required = true;
        if (param.values !== undefined) published.values = param.values;
        return published;
      })
    : [];

/**
 * The integrations as the gateways receive them (and test runs use them): each secret sealed by
 * `seal`; one that cannot be opened is left out, as if not configured.
 */
export function publishedIntegrationsOf(
  list: ProjectServingState['integrations'],
  seal: (storedSecret: string) => string | null,
): PublishedIntegrations {
  const integrations: PublishedIntegrations = { text_generation: null, email: null };
  for (const integration of list) {
    const settings = integrationSettingsOf(integration.settings);
    const apiKeyEncrypted = seal(integration.secretEncrypted);
    if (apiKeyEncrypted === null) continue;
    if (integration.kind === 'text_generation')
      integrations.text_generation = {
        provider: 'anthropic',
        api_key_encrypted: apiKeyEncrypted,
        default_model: settings.default_model,
      };
    else
      integrations.email = {
        provider: 'sendgrid',
        api_key_encrypted: apiKeyEncrypted,
        verified_domains: settings.verified_domains,
      };
  }
  return integrations;
}

/**
 * The `fg:project:{id}` document of the Redis contract. `seal` re-encrypts an integration secret
 * for the publication (the gateways decrypt it with FLOWGATE_ENCRYPTION_KEY); null when the
 * secret cannot be decrypted, and the integration is then published as not configured.
 */
export function buildPublishedProject(state: ProjectServingState, seal: (storedSecret: string) => string | null): PublishedProject {
  return {
    id: state.id,
    subdomain: state.subdomain,
    require_auth: state.requireAuth,
    revision: state.revision,
    integrations: publishedIntegrationsOf(state.integrations, seal),
    routes: publishedRoutesOf(state.routes),
    secrets: publishedSecretsOf(state.secrets, seal),
    preview_routes: publishedRoutesOf(state.previewRoutes),
    tables: state.tables.map((table) => ({ id: table.id, name: table.name, columns: table.columns as DataColumn[] })),
    functions: publishedFunctionsOf(state.functions),
    preview_functions: publishedFunctionsOf(state.previewFunctions),
    schedules: [...state.schedules]
      .sort((a, b) => a.scheduleId.localeCompare(b.scheduleId))
      .map((row) => ({ schedule_id: row.scheduleId, name: row.name, version: row.version, compiled: row.compiled })),
  };
}

/**
 * The project's secrets as the gateways receive them, each value sealed by `seal`; a secret
 * whose value no key opens is left out (a flow reading it fails naming it), a preview value
 * that cannot be opened falls back to the value.
 */
export function publishedSecretsOf(list: ProjectServingState['secrets'], seal: (storedSecret: string) => string | null): PublishedSecret[] {
  const published: PublishedSecret[] = [];
  for (const secret of list) {
    const value = seal(secret.valueEncrypted);
    if (value === null) continue;
    published.push({ name: secret.name, value_encrypted: value, preview_value_encrypted: secret.previewValueEncrypted === null ? null : seal(secret.previewValueEncrypted) });
  }
  return published;
}

function publishedRoutesOf(routes: ProjectServingState['routes']): PublishedRoute[] {
  return [...routes]
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map((route) => ({
      endpoint_id: route.endpointId,
      name: route.name,
      method: route.method,
      path: route.path,
      auth: route.auth,
      query_params: queryParamsOf(route.queryParams),
      ...publishedOptionsOf(route.options),
      version: route.version,
      compiled: route.compiled,
    }));
}

/** Only the settings that are set: a route without any is published as before. */
function publishedOptionsOf(stored: unknown): Pick<PublishedRoute, 'body_schema' | 'signature' | 'cache'> {
  const options = (stored ?? {}) as Pick<PublishedRoute, 'body_schema' | 'signature' | 'cache'>;
  const published: Pick<PublishedRoute, 'body_schema' | 'signature' | 'cache'> = {};
  if (options.body_schema != null) published.body_schema = options.body_schema;
  if (options.signature != null) published.signature = options.signature;
  if (options.cache != null) published.cache = options.cache;
  return published;
}

/** The `fg:key:{hash}` hash fields (Redis stores strings). */
export function publishedKeyFields(projectId: string, key: ProjectServingState['keys'][number]): Record<keyof PublishedApiKey, string> {
  return { id: key.id, project_id: projectId, permission: key.permission, ratelimit_min: String(key.ratelimitMin) };
}
