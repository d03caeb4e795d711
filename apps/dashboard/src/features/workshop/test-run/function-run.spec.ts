import { functionRunOf } from './function-run';
import type { TestRunResult, TraceEntry } from './test-run-types';

const entry = (node_id: string, type: string, more: Partial<TraceEntry> = {}): TraceEntry => ({ node_id, type, label: node_id, status: 'ok', duration_ms: 1, ...more });
const result = (trace: TraceEntry[], status = 200): TestRunResult => ({ response: { status, headers: {}, body: 'Hello Ada' }, duration_ms: 3, diagnostics: [], trace });

describe("a function's test run in its Workshop", () => {
  it('shows the blocks the function ran, not the caller around it', () => {
    const own = [entry('greet', 'set_variable'), entry('return', 'return_value')];
    const shown = functionRunOf(result([entry('call', 'call_function', { calls: own }), entry('answer', 'respond')]), 'start');
    expect(shown.trace.map((step) => step.label)).toEqual(['greet', 'return']);
    expect(shown.response.body).toBe('Hello Ada');
  });

  it('shows a failing block of the function with its error, in the function’s words', () => {
    const failed = entry('fetch', 'http_request', { status: 'error', error: { code: 'http_error', message: 'connection refused' } });
    const answer = result([entry('call', 'call_function', { label: 'Call Function', status: 'error', calls: [failed] })], 500);
    answer.response.body = { success: false, code: 'flow_error', message: 'Call Function (call): Send External Request (fetch): connection refused' };
    const shown = functionRunOf(answer, 'start');
    expect(shown.trace).toEqual([failed]);
    expect(shown.response.body).toEqual({ success: false, code: 'flow_error', message: 'Send External Request (fetch): connection refused' });
  });

  it('puts arguments refused before any block ran on the base settings block', () => {
    const error = { code: 'invalid_argument', message: 'input amount must be a number' };
    const shown = functionRunOf(result([entry('call', 'call_function', { status: 'error', error })], 422), 'begin');
    expect(shown.trace).toEqual([expect.objectContaining({ node_id: 'begin', label: 'Inputs', status: 'error', error })]);
  });
});
