import { compileFlow, type EndpointSettings } from '@flowgate/flow-engine';
import type { DataColumn } from '@flowgate/contracts';
import { type EndpointRow, type ProjectServingState, integrationSettingsOf } from './published-project.builder';

/** A saved draft as PostgreSQL holds it. */
export interface DraftRow extends EndpointRow {
  flow: unknown;
}

/**
 * What the preview address serves: every saved draft whose flow has no error diagnostic
 * (checked against the project's email domains, tables and secret names, as Deploy checks it),
 * compiled. Drafts are not versioned: `version` 0, and gateways prepare them afresh on each load.
 */
export function previewRoutesOf(drafts: readonly DraftRow[], state: Pick<ProjectServingState, 'integrations' | 'secrets' | 'tables'>): ProjectServingState['routes'] {
  const email = state.integrations.find((integration) => integration.kind === 'email');
  const context = {
    email_verified_domains: email === undefined ? undefined : integrationSettingsOf(email.settings).verified_domains,
    secret_names: state.secrets.map((secret) => secret.name),
    tables: state.tables.map((table) => ({ id: table.id, name: table.name, columns: table.columns as DataColumn[] })),
  };
  const routes: ProjectServingState['routes'] = [];
  for (const draft of drafts) {
    const settings = { name: draft.name, method: draft.method, path: draft.path, auth: draft.auth, query_params: draft.queryParams } as EndpointSettings;
    const result = compileFlow({ flow: draft.flow, settings, context });
    if (!result.ok) continue;
    routes.push({ ...draft, version: 0, compiled: result.compiled });
  }
  return routes;
}
