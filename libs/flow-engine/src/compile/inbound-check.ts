import type { CompileContext, DiagnosticSink } from '../diagnostics/diagnostic';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';

const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * What the settings' shape cannot say alone: a body schema needs a body, a cache a GET, a
 * signature a secret the project has (checked when the project's secret names are known).
 */
export function checkInboundSettings(settings: EndpointSettings, context: CompileContext, sink: DiagnosticSink): void {
  if (settings.body_schema != null && !BODY_METHODS.has(settings.method)) {
    sink.error('body_schema_without_body', null, 'body_schema', `A ${settings.method} request has no body to check: remove the body schema or use POST, PUT or PATCH.`);
  }
  if (settings.cache != null && settings.method !== 'GET') {
    sink.error('cache_not_get', null, 'cache', `Only GET answers are cached; a ${settings.method} endpoint cannot have a cache.`);
  }
  const secret = settings.signature?.secret;
  if (secret !== undefined && context.secret_names !== undefined && !context.secret_names.includes(secret)) {
    sink.error('unknown_secret', null, 'signature.secret', `The signing secret "${secret}" is not one of the project's secrets.`);
  }
}
