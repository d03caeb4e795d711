import type { TestRunResult, TraceEntry } from './test-run-types';

/**
 * A function's test run as its Workshop shows it: the control plane runs the function through a
 * caller (Call Function, then Respond), and the trace's Call Function entry holds the blocks the
 * function ran. Those are the blocks on this canvas, so they are the trace; arguments refused
 * before any block ran (a missing or mistyped input) show on the base settings block, where the
 * inputs are set; a failure's message is the function's, without the caller's prefix.
 */
export function functionRunOf(result: TestRunResult, startId: string): TestRunResult {
  const call = result.trace.find((entry) => entry.type === 'call_function');
  if (!call) return result;
  const own = call.calls ?? [];
  const refused: TraceEntry[] = call.status === 'error' && own.length === 0 ? [{ node_id: startId, type: 'start', label: 'Inputs', status: 'error', duration_ms: call.duration_ms, ...(call.error ? { error: call.error } : {}) }] : [];
  return { ...result, response: { ...result.response, body: withoutCaller(result.response.body, `${call.label} (${call.node_id}): `) }, trace: [...refused, ...own] };
}

/** A failure's message as the function gave it: the caller's "Call Function (call): " prefix taken off. */
function withoutCaller(body: unknown, prefix: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { message } = body as { message?: unknown };
  return typeof message === 'string' && message.startsWith(prefix) ? { ...body, message: message.slice(prefix.length) } : body;
}
