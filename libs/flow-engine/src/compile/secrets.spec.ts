import type { HttpPort, OutboundRequest } from '../ports';
import { codes, diagnostics, linearFlow, respondBody, respondingFlow, runFlow } from '../testing/flow-fixtures';
import { compileFlow } from './compile-flow';
import { referencesAt } from './reference-scope';
import { secretsReadBy } from './secrets-read';
import { settings } from '../testing/flow-fixtures';

const secrets = new Map([
  ['API_TOKEN', 'tok-live-123'],
  ['GREETING', 'hi'],
]);

describe('{secrets.NAME}', () => {
  it('reads the value the run was given, in every template field (header of Send External Request, Set Variable, Respond)', async () => {
    const sent: OutboundRequest[] = [];
    const http: HttpPort = {
      request: async (outbound) => {
        sent.push(outbound);
        return { status: 200, headers: {}, body: 'ok' };
      },
    };
    const flow = respondingFlow(
      [
        { type: 'http_request', config: { name: 'api', url: 'https://api.example.com/v1?k={secrets.API_TOKEN}', headers: [{ key: 'Authorization', value: 'Bearer {secrets.API_TOKEN}' }] } },
        { type: 'set_variable', config: { name: 'g', value: '{secrets.GREETING}' } },
      ],
      { g: '{local.g}', status: '{api.status}' },
    );
    const context = { secret_names: [...secrets.keys()] };
    await expect(respondBody(flow, { ports: { http, secrets }, context })).resolves.toEqual({ g: 'hi', status: 200 });
    expect(sent[0]!.headers.Authorization).toBe('Bearer tok-live-123');
    expect(sent[0]!.url).toBe('https://api.example.com/v1?k=tok-live-123');
  });

  it('reports a name the project does not have as unknown_secret, naming node and field', () => {
    const flow = linearFlow([{ id: 'h1', type: 'http_request', config: { name: 'api', url: 'https://x.example', headers: [{ key: 'X-Key', value: '{secrets.NOPE}' }] } }]);
    const found = diagnostics(flow, { context: { secret_names: ['API_TOKEN'] } });
    expect(found.filter((item) => item.severity === 'error')).toEqual([
      expect.objectContaining({ severity: 'error', code: 'unknown_secret', node_id: 'h1', field: 'headers.0.value', message: expect.stringContaining('NOPE') }),
    ]);
    // Without the project's names (a caller that does not know them) nothing is reported.
    expect(codes(diagnostics(flow))).toEqual(['no_respond']);
  });

  it('refuses a path below a secret, which is text', () => {
    const flow = respondingFlow([], { a: '{secrets.API_TOKEN.x}' });
    expect(codes(diagnostics(flow, { context: { secret_names: ['API_TOKEN'] } }))).toEqual(['unresolvable_path']);
  });

  it('fails the block with a 500 flow_error naming the secret, never a value, when the secret is gone', async () => {
    const flow = respondingFlow([{ id: 's1', type: 'set_variable', config: { name: 'v', value: 'x {secrets.API_TOKEN}' } }], {});
    const result = await runFlow(flow, { ports: { secrets: new Map([['OTHER', 'tok-live-123']]) } });
    expect(result).toEqual({ type: 'error', status: 500, code: 'flow_error', node_id: 's1', message: expect.stringContaining('API_TOKEN') });
    expect(JSON.stringify(result)).not.toContain('tok-live-123');
  });

  it('lists the secrets a compiled flow reads, and offers the project names for completion', () => {
    const flow = respondingFlow([{ id: 's1', type: 'set_variable', config: { name: 'v', value: '{secrets.B} {secrets.A}' } }], { t: '{secrets.A}' });
    const compiled = compileFlow({ flow, settings: settings() });
    if (!compiled.ok) throw new Error('expected the flow to compile');
    expect(secretsReadBy(JSON.parse(JSON.stringify(compiled.compiled)))).toEqual(['A', 'B']);
    expect(secretsReadBy({ blocks: [] })).toEqual([]);
    const offered = referencesAt({ flow, settings: settings() }, 's1', ['A', 'B']).map((item) => item.reference);
    expect(offered).toEqual(expect.arrayContaining(['secrets.A', 'secrets.B']));
  });

  it('makes secrets a reserved root: a Send External Request block may not be named so', () => {
    const flow = linearFlow([{ type: 'http_request', config: { name: 'secrets', url: 'https://x.example' } }]);
    expect(codes(diagnostics(flow))).toContain('invalid_field');
  });
});
