import type { CompileInput, EndpointSettings } from '@flowgate/flow-engine';
import type { Endpoint, FlowFunction, Schedule } from '../../../api/types';
import type { FlowResource } from '../../../api/flow-calls';
import { docFromEndpoint, exportDocument as exportEndpoint, saveBody as endpointSaveBody } from './endpoint-doc';
import { docFromFunction, engineInputs, functionSaveBody } from './function-doc';
import { docFromSchedule, scheduleSaveBody } from './schedule-doc';
import type { SettingsDraft, WorkshopDoc } from './workshop-document';

/**
 * What differs between the three things a flow belongs to (an endpoint, a function, a schedule),
 * in one place: everything else in the Workshop is the same for all three.
 */

/** The editor's document from what the API returns, as the kind it is. */
export function docFromResource(kind: SettingsDraft['kind'], resource: FlowResource): WorkshopDoc {
  if (kind === 'function') return docFromFunction(resource as FlowFunction);
  if (kind === 'schedule') return docFromSchedule(resource as Schedule);
  return docFromEndpoint(resource as Endpoint);
}

/** A deployed version as a document of the draft's kind (a schedule's version keeps the draft's `enabled`: it is not versioned). */
export function docFromVersion(version: Record<string, unknown>, draft: WorkshopDoc): WorkshopDoc {
  const kind = draft.settings.kind;
  const enabled = kind === 'schedule' ? { enabled: draft.settings.enabled } : {};
  return docFromResource(kind, { ...version, ...enabled } as unknown as FlowResource);
}

/** What Save sends for the document's kind. */
export function saveBodyOf(doc: WorkshopDoc): Record<string, unknown> {
  switch (doc.settings.kind) {
    case 'endpoint':
      return endpointSaveBody(doc) as unknown as Record<string, unknown>;
    case 'function':
      return functionSaveBody(doc);
    case 'schedule':
      return scheduleSaveBody(doc);
  }
}

/** The engine's input for the document as Save sends it: an endpoint's settings, a function's inputs, or a schedule. */
export function compileInputOf(doc: WorkshopDoc): Pick<CompileInput, 'flow' | 'settings' | 'inputs' | 'schedule'> {
  const flow = { nodes: doc.nodes, edges: doc.edges };
  switch (doc.settings.kind) {
    case 'endpoint': {
      const { flow: _flow, ...settings } = endpointSaveBody(doc);
      return { flow, settings: settings as EndpointSettings };
    }
    case 'function':
      return { flow, inputs: engineInputs(doc.settings.inputs) };
    case 'schedule':
      return { flow, schedule: true };
  }
}

/** The start node's name on the canvas: "GET /hello", "Function Price", "Schedule Nightly · 0 3 * * *". */
export function startTitle(settings: SettingsDraft): string {
  switch (settings.kind) {
    case 'endpoint':
      return `${settings.method} ${settings.path}`;
    case 'function':
      return `Function ${settings.name}`;
    case 'schedule':
      return `Schedule ${settings.name} · ${settings.cron}`;
  }
}

/** The base settings' titles (as the settings panel labels them), for Problems and the version changes. */
export const SETTINGS_TITLES: { [K in SettingsDraft['kind']]: Record<string, string> } = {
  endpoint: { name: 'Endpoint name', method: 'Method', path: 'Path', auth: 'Authentication', query_params: 'Query parameters' },
  function: { name: 'Function name', description: 'Description', inputs: 'Inputs' },
  schedule: { name: 'Schedule name', cron: 'Cron', timezone: 'Time zone' },
};

/** What `Export` downloads (the format `Import` reads), or null for a kind without import. */
export function exportDocumentOf(doc: WorkshopDoc): string | null {
  switch (doc.settings.kind) {
    case 'endpoint':
      return exportEndpoint(doc);
    case 'function': {
      const { name, description, inputs, flow } = functionSaveBody(doc);
      return `${JSON.stringify({ flowgate_export: 1, function: { name, description, inputs, flow } }, null, 2)}\n`;
    }
    case 'schedule':
      return null;
  }
}

/** How the page names what it edits ("This endpoint has unsaved changes"). */
export const KIND_WORDS: { [K in SettingsDraft['kind']]: string } = { endpoint: 'endpoint', function: 'function', schedule: 'schedule' };
