/** One tool of a project's MCP server: a live endpoint whose settings opt in (`mcp.enabled`). */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
  method: string;
  path: string;
  /** The query parameters' names: the tool's arguments that go in the query string. */
  queryNames: string[];
  hasBody: boolean;
}

interface RawOperation {
  operationId?: string;
  'x-mcp'?: { description?: string };
  parameters?: Array<{ name: string; in?: string; required?: boolean; schema?: unknown }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The tools of a project from its OpenAPI document (the one `/_openapi.json` serves, built by the
 * control plane from the live versions): name = operationId, description = the endpoint's
 * `mcp.description` or its name, input = its typed query parameters and, as `body`, its body
 * schema. A deploy publishes a new document, so `tools/list` changes on the next request.
 */
export function toolsOf(document: unknown): McpTool[] {
  const paths = (document as { paths?: Record<string, Record<string, RawOperation>> } | null)?.paths ?? {};
  const tools: McpTool[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.['x-mcp'] === undefined || typeof op.operationId !== 'string') continue;
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      const queryNames: string[] = [];
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        properties[parameter.name] = parameter.schema ?? { type: 'string' };
        queryNames.push(parameter.name);
        if (parameter.required === true) required.push(parameter.name);
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body !== undefined) {
        properties.body = body;
        if (op.requestBody?.required === true) required.push('body');
      }
      tools.push({
        name: op.operationId,
        description: op['x-mcp'].description ?? op.operationId,
        inputSchema: required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties },
        method: method.toUpperCase(),
        path,
        queryNames,
        hasBody: body !== undefined,
      });
    }
  }
  return tools;
}

/** The query string of a call: each query argument given, as text (a typed value in its JSON form). */
export function queryOf(tool: McpTool, args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const name of tool.queryNames) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
