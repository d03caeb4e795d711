import { compileFlow, type CompileContext, type EndpointSettings, type FunctionInput } from '@flowgate/flow-engine';
import type { DataColumn } from '@flowgate/contracts';
import { settingsFromOptions } from '../endpoints/endpoint-options';
import { type EndpointRow, type FunctionRow, type ProjectServingState, integrationSettingsOf } from './published-project.builder';

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
  const context = contextOf(state);
  const routes: ProjectServingState['routes'] = [];
  for (const draft of drafts) {
    const settings = { name: draft.name, method: draft.method, path: draft.path, auth: draft.auth, query_params: draft.queryParams, ...settingsFromOptions(draft.options) } as EndpointSettings;
    const result = compileFlow({ flow: draft.flow, settings, context });
    if (!result.ok) continue;
    routes.push({ ...draft, version: 0, compiled: result.compiled });
  }
  return routes;
}

/** A saved function draft as PostgreSQL holds it. */
export interface FunctionDraftRow {
  functionId: string;
  name: string;
  inputs: unknown;
  flow: unknown;
}

/** The function drafts that the preview address calls: those without error diagnostics, compiled (`version` 0). */
export function previewFunctionsOf(drafts: readonly FunctionDraftRow[], state: Pick<ProjectServingState, 'integrations' | 'secrets' | 'tables'>): FunctionRow[] {
  const context = contextOf(state);
  const functions: FunctionRow[] = [];
  for (const draft of drafts) {
    const result = compileFlow({ flow: draft.flow, inputs: (Array.isArray(draft.inputs) ? draft.inputs : []) as FunctionInput[], context });
    if (result.ok) functions.push({ functionId: draft.functionId, name: draft.name, version: 0, compiled: result.compiled });
  }
  return functions;
}

/** What drafts are checked against (Call Function's calls are not: the preview address calls the function drafts). */
function contextOf(state: Pick<ProjectServingState, 'integrations' | 'secrets' | 'tables'>): CompileContext {
  const email = state.integrations.find((integration) => integration.kind === 'email');
  return {
    email_verified_domains: email === undefined ? undefined : integrationSettingsOf(email.settings).verified_domains,
    secret_names: state.secrets.map((secret) => secret.name),
    text_generation: state.integrations.some((integration) => integration.kind === 'text_generation'),
    tables: state.tables.map((table) => ({ id: table.id, name: table.name, columns: table.columns as DataColumn[] })),
  };
}
