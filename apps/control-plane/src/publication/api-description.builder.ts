import type { DataColumn } from '@flowgate/contracts';
import { describeApi, type CompiledFlow, type EndpointSettings, type OpenApiDocument } from '@flowgate/flow-engine';
import { settingsFromOptions } from '../endpoints/endpoint-options';
import type { ProjectServingState } from './published-project.builder';

/**
 * The project's OpenAPI document, from the same serving state as its published document (the
 * live versions), so what the gateways serve and what the document describes never differ.
 */
export function buildApiDescription(state: ProjectServingState, baseUrl: string): OpenApiDocument {
  return describeApi({
    title: state.name,
    version: String(state.revision),
    baseUrl,
    requireAuth: state.requireAuth,
    endpoints: state.routes.map((route) => ({
      settings: {
        name: route.name,
        method: route.method,
        path: route.path,
        auth: route.auth,
        query_params: Array.isArray(route.queryParams) ? (route.queryParams as EndpointSettings['query_params']) : [],
        ...settingsFromOptions(route.options),
      },
      compiled: route.compiled as CompiledFlow,
    })),
    tables: state.tables.map((table) => ({ name: table.name, columns: table.columns as DataColumn[] })),
    functions: new Map(state.functions.map((fn) => [fn.functionId, fn.compiled as CompiledFlow])),
  });
}
