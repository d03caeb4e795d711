import type { EndpointSettings, FlowDocument } from '@flowgate/flow-engine';
import { canonicalJson } from '../common/canonical-json';
import { optionsOf, settingsFromOptions } from './endpoint-options';
import type { EndpointInput, EndpointView, VersionView } from './dto/endpoint.dto';
import type { EndpointContent, EndpointRecord, VersionRecord } from './endpoints.repository';

/** What a Save stores and a Deploy freezes. */
export const contentOf = (input: EndpointInput): EndpointContent => ({
  name: input.name,
  method: input.method,
  path: input.path,
  auth: input.auth,
  queryParams: input.query_params,
  flow: input.flow,
  options: optionsOf(input),
});

export const settingsOf = (content: EndpointContent): EndpointSettings => ({
  name: content.name,
  method: content.method,
  path: content.path,
  auth: content.auth,
  query_params: content.queryParams as EndpointSettings['query_params'],
  ...settingsFromOptions(content.options),
});

export const flowOf = (content: EndpointContent): FlowDocument => content.flow as FlowDocument;

/** Same settings and flow, whatever order jsonb returned the keys in. */
export function sameContent(a: EndpointContent, b: EndpointContent): boolean {
  const pick = (c: EndpointContent) => canonicalJson([c.name, c.method, c.path, c.auth, c.queryParams, c.flow, c.options ?? {}]);
  return pick(a) === pick(b);
}

const contentView = (content: EndpointContent) => ({
  name: content.name,
  method: content.method,
  path: content.path,
  auth: content.auth,
  query_params: content.queryParams as EndpointView['query_params'],
  ...settingsFromOptions(content.options),
  flow: content.flow as EndpointView['flow'],
});

/** Where the project is served: its live base URL and its preview base URL. */
export interface ProjectAddresses {
  live: string;
  preview: string;
}

export function toEndpointView(endpoint: EndpointRecord, addresses: ProjectAddresses, livePath: string | null): EndpointView {
  const live = endpoint.liveVersion !== null;
  return {
    id: endpoint.id,
    project_id: endpoint.projectId,
    ...contentView(endpoint),
    status: live ? 'live' : 'draft',
    live_version: endpoint.liveVersion,
    live_url: live && livePath !== null ? addresses.live + livePath : null,
    preview_url: addresses.preview + endpoint.path,
    has_undeployed_changes: !live || endpoint.draftChangedAt !== null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function toVersionView(version: VersionRecord, liveVersion: number | null): VersionView {
  return {
    version: version.version,
    ...contentView(version),
    live: version.version === liveVersion,
    created_at: version.createdAt.toISOString(),
  };
}
