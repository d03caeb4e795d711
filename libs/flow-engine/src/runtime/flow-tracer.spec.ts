import { EgressError } from '../ports';
import type { CaughtError, FlowTracer, SkipReason, TracedBlock } from './flow-tracer';
import type { FlowResult } from './flow-io';
import { graphFlow, linearFlow, request, runFlow } from '../testing/flow-fixtures';

type Entry = { id: string; type: string; status: 'running' | 'ok' | 'error'; stored?: unknown; branch?: boolean | null; skipped?: SkipReason | null; error?: string; failed?: CaughtError };

/** Records the tracer's calls as the Workshop's trace would. */
function recordingTracer() {
  const entries: Entry[] = [];
  const tracer: FlowTracer = {
    blockStarted: (block: TracedBlock) => entries.push({ id: block.id, type: block.type, status: 'running' }),
    blockEnded: (block, outcome) => Object.assign(entries[entries.length - 1], { status: 'ok', ...outcome }),
    blockFailed: (block, error: Extract<FlowResult, { type: 'error' }>) => {
      const last = entries[entries.length - 1];
      if (last?.id === block.id && last.status === 'running') Object.assign(last, { status: 'error', error: error.code });
      else entries.push({ id: block.id, type: block.type, status: 'error', error: error.code });
    },
  };
  return { tracer, entries };
}

describe('flow tracer', () => {
  it('records each block in order with what it stored, the branch taken, and why a block was skipped', async () => {
    const { tracer, entries } = recordingTracer();
    const flow = graphFlow(
      [
        { id: 'v', type: 'set_variable', config: { name: 'who', value: 'Ada' } },
        { id: 'g', type: 'generate_text', config: { prompt: 'hi', ref: 'poem' } },
        { id: 'c', type: 'condition', config: { left: '{local.who}', operator: 'eq', right: 'Ada' } },
        { id: 'yes', type: 'respond', config: { status: 201, body: { hello: '{local.who}' } } },
        { id: 'no', type: 'respond', config: { status: 200, body: {} } },
      ],
      ['start>v', 'v>g', 'g>c', 'c:true>yes', 'c:false>no'],
    );
    const result = await runFlow(flow, { options: { tracer } });
    expect(result).toEqual({ type: 'response', status: 201, body: { hello: 'Ada' } });
    expect(entries).toEqual([
      { id: 'v', type: 'set_variable', status: 'ok', stored: 'Ada', branch: null, skipped: null },
      { id: 'g', type: 'generate_text', status: 'ok', stored: undefined, branch: null, skipped: 'integration_not_configured' },
      { id: 'c', type: 'condition', status: 'ok', stored: undefined, branch: true, skipped: null },
      { id: 'yes', type: 'respond', status: 'ok', stored: { type: 'response', status: 201, body: { hello: 'Ada' } }, branch: null, skipped: null },
    ]);
  });

  it('tells that a request which got no answer failed, with the reason, while the flow goes on (no error handle)', async () => {
    const { tracer, entries } = recordingTracer();
    const http = { request: async () => Promise.reject(new EgressError('connection_failed', 'connection failed (ECONNREFUSED)')) };
    const flow = linearFlow([
      { id: 'h', type: 'http_request', config: { name: 'api', url: 'https://api.example.com' } },
      { id: 'r', type: 'respond', config: { status: 200, body: { error: '{api.error}' } } },
    ]);
    await expect(runFlow(flow, { options: { tracer }, ports: { http } })).resolves.toEqual({ type: 'response', status: 200, body: { error: 'connection_failed' } });
    expect(entries[0]).toMatchObject({
      id: 'h',
      stored: { status: null, error: 'connection_failed' },
      failed: { code: 'connection_failed', message: 'the request failed: connection failed (ECONNREFUSED)' },
    });
    expect(entries[1]).not.toHaveProperty('failed');

    const answered = { request: async () => ({ status: 404, headers: {}, body: 'no' }) };
    // A refusal of the egress guard does not tell the flow what an internal name resolved to.
    const blocked = { request: async () => Promise.reject(new EgressError('egress_blocked', 'db.internal is not reachable from flows: 10.0.0.5 is private')) };
    const { tracer: third, entries: refused } = recordingTracer();
    await runFlow(flow, { options: { tracer: third }, ports: { http: blocked } });
    expect(refused[0]).toMatchObject({ failed: { code: 'egress_blocked', message: 'the request failed: flows may not reach this address' } });

    const { tracer: second, entries: again } = recordingTracer();
    await runFlow(flow, { options: { tracer: second }, ports: { http: answered } });
    expect(again[0]).not.toHaveProperty('failed');
  });

  it('shows the message of a dry-run email instead of queueing it, after the same checks', async () => {
    const { tracer, entries } = recordingTracer();
    const enqueue = jest.fn(async () => undefined);
    const email = { verifiedDomains: ['shop.test'], dryRun: true, enqueue };
    const flow = linearFlow([
      { id: 'm', type: 'send_email', config: { to: 'ada@example.com', from: 'Shop <hi@shop.test>', subject: 'Hi', body: 'Hello' } },
      { id: 'r', type: 'respond', config: { status: 200, body: { sent: true } } },
    ]);
    await expect(runFlow(flow, { options: { tracer }, ports: { email } })).resolves.toMatchObject({ status: 200 });
    expect(enqueue).not.toHaveBeenCalled();
    expect(entries[0]).toMatchObject({ id: 'm', skipped: 'dry_run', stored: { to: 'ada@example.com', from: 'Shop <hi@shop.test>', subject: 'Hi', body: 'Hello' } });
    expect(entries[1]).toMatchObject({ id: 'r', skipped: null });

    const unverified = linearFlow([{ id: 'm', type: 'send_email', config: { to: 'ada@example.com', from: 'Shop <hi@elsewhere.test>', subject: 'Hi', body: 'x' } }]);
    await expect(runFlow(unverified, { ports: { email } })).resolves.toMatchObject({ type: 'error', node_id: 'm' });
  });

  it('names the block that failed', async () => {
    const { tracer, entries } = recordingTracer();
    const flow = linearFlow([
      { id: 'a', type: 'set_variable', config: { name: 'x', value: 'zz' } },
      { id: 'd', type: 'decode_text', config: { input: '{local.x}', encoding: 'hex', ref: 'out' } },
    ]);
    const result = await runFlow(flow, { options: { tracer }, request: request() });
    expect(result).toMatchObject({ type: 'error', code: 'flow_error', node_id: 'd' });
    expect(entries.map(({ id, status }) => [id, status])).toEqual([
      ['a', 'ok'],
      ['d', 'error'],
    ]);
  });

  it('follows a flow through an awaited port call', async () => {
    const { tracer, entries } = recordingTracer();
    const flow = linearFlow([
      { id: 'h', type: 'http_request', config: { name: 'api', url: 'https://api.example.com/' } },
      { id: 'r', type: 'respond', config: { status: 200, body: { s: '{api.status}' } } },
    ]);
    const http = { request: async () => ({ status: 204, headers: {}, body: '' }) };
    await expect(runFlow(flow, { options: { tracer }, ports: { http } })).resolves.toMatchObject({ body: { s: 204 } });
    expect(entries.map(({ id, status }) => [id, status])).toEqual([
      ['h', 'ok'],
      ['r', 'ok'],
    ]);
    expect(entries[0].stored).toMatchObject({ status: 204 });
  });
});
