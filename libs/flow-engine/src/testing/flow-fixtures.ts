/**
 * Builders for the engine's own tests: flows in a few lines, compiled, round-tripped through
 * JSON (as the gateway receives them from Redis), prepared and executed.
 */
import type { Diagnostic, CompileContext } from '../diagnostics/diagnostic';
import { compileFlow, validateFlow } from '../compile/compile-flow';
import { executeFlow } from '../execute/execute-flow';
import { prepareFlow } from '../execute/prepare-flow';
import type { JsonValue } from '../json';
import type { FlowPorts } from '../ports';
import type { ExecuteOptions, FlowRequest, FlowResult } from '../runtime/flow-io';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';
import type { FlowDocument } from '../schema/flow-document.schema';

export interface BlockSpec {
  id?: string;
  type: string;
  config?: Record<string, JsonValue>;
}

const position = { x: 0, y: 0 };

/** Start → blocks in the given order; ids default to n1, n2, … */
export function linearFlow(blocks: BlockSpec[]): FlowDocument {
  const ids = blocks.map((block, index) => block.id ?? `n${index + 1}`);
  const chain = ['start', ...ids];
  return {
    nodes: [
      { id: 'start', type: 'start', position },
      ...blocks.map((block, index) => ({ id: ids[index], type: block.type, position, ...(block.config ? { config: block.config } : {}) })),
    ],
    edges: chain.slice(1).map((target, index) => ({ id: `e${index + 1}`, source: chain[index], target })),
  };
}

/** A flow from explicit nodes (Start added) and edges written as `source>target` or `source:true>target`. */
export function graphFlow(blocks: Array<BlockSpec & { id: string }>, connections: string[]): FlowDocument {
  return {
    nodes: [{ id: 'start', type: 'start', position }, ...blocks.map((block) => ({ id: block.id, type: block.type, position, ...(block.config ? { config: block.config } : {}) }))],
    edges: connections.map((connection, index) => {
      const [from, target] = connection.split('>');
      const [source, sourceHandle] = from.split(':');
      return { id: `e${index + 1}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) };
    }),
  };
}

export function settings(overrides: Partial<EndpointSettings> = {}): EndpointSettings {
  return { name: 'Test', method: 'POST', path: '/test', auth: 'none', query_params: [], ...overrides };
}

export function request(overrides: Partial<Omit<FlowRequest, 'query'>> & { query?: string } = {}): FlowRequest {
  const { query, ...rest } = overrides;
  return { method: 'POST', path: '/test', body: undefined, headers: {}, ...rest, query: new URLSearchParams(query ?? '') };
}

export interface RunOptions {
  settings?: EndpointSettings;
  request?: FlowRequest;
  ports?: FlowPorts;
  options?: ExecuteOptions;
  context?: CompileContext;
}

/** Compiles (failing the test on any error), stores as JSON, prepares and runs. */
export async function runFlow(flow: FlowDocument, run: RunOptions = {}): Promise<FlowResult> {
  const compiled = compileFlow({ flow, settings: run.settings ?? settings(), context: run.context });
  if (!compiled.ok) throw new Error(`flow does not compile:\n${compiled.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`).join('\n')}`);
  const stored = JSON.parse(JSON.stringify(compiled.compiled)) as typeof compiled.compiled;
  return executeFlow(prepareFlow(stored), run.request ?? request(), run.ports ?? {}, run.options);
}

/** The body of a Respond answer; fails the test on an error result. */
export async function respondBody(flow: FlowDocument, run: RunOptions = {}): Promise<unknown> {
  const result = await runFlow(flow, run);
  if (result.type !== 'response') throw new Error(`expected a response, got ${JSON.stringify(result)}`);
  return result.body;
}

/** Start → blocks → Respond with `body`. */
export const respondingFlow = (blocks: BlockSpec[], body: JsonValue): FlowDocument =>
  linearFlow([...blocks, { id: 'respond', type: 'respond', config: { body } }]);

export function diagnostics(flow: unknown, run: Pick<RunOptions, 'settings' | 'context'> = {}): Diagnostic[] {
  return validateFlow({ flow, settings: run.settings ?? settings(), context: run.context });
}

export const codes = (found: Diagnostic[]): string[] => found.map((diagnostic) => diagnostic.code);
