import type { BodySchema, CacheSettings, McpSettings, SignatureSettings } from '@flowgate/flow-engine';

/** The settings stored together in the `options` column: each null when not set. */
export interface EndpointOptions {
  body_schema: BodySchema | null;
  signature: SignatureSettings | null;
  cache: CacheSettings | null;
  mcp: McpSettings | null;
}

/** What a Save stores: only the settings that are set (an endpoint without any stores `{}`). */
export function optionsOf(input: Partial<EndpointOptions>): Partial<EndpointOptions> {
  const options: Partial<EndpointOptions> = {};
  if (input.body_schema != null) options.body_schema = input.body_schema;
  if (input.signature != null) options.signature = input.signature;
  if (input.cache != null) options.cache = input.cache;
  if (input.mcp != null && input.mcp.enabled) options.mcp = input.mcp;
  return options;
}

/** The stored column as the API shows it: every setting present, null when not set. */
export function settingsFromOptions(stored: unknown): EndpointOptions {
  const options = (stored ?? {}) as Partial<EndpointOptions>;
  return { body_schema: options.body_schema ?? null, signature: options.signature ?? null, cache: options.cache ?? null, mcp: options.mcp ?? null };
}
