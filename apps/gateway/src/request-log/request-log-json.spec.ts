import { requestLogEventSchema, type RequestLogDetails, type RequestLogEvent } from '@flowgate/contracts';
import { randomUUID } from 'node:crypto';
import { requestLogEventJson, type RequestLogFields } from './request-log-json';

describe('requestLogEventJson', () => {
  const fields = (overrides: Partial<RequestLogFields> = {}): RequestLogFields => ({
    id: randomUUID(),
    projectId: randomUUID(),
    endpointId: randomUUID(),
    path: '/api/orders',
    method: 'POST',
    status: 201,
    code: null,
    durationMs: 1.234,
    keyId: randomUUID(),
    query: '',
    message: null,
    errorNodeId: null,
    arrivalMs: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    preview: false,
    ...overrides,
  });
  const asObject = (f: RequestLogFields): Omit<RequestLogEvent, 'environment' | 'trigger' | 'details'> & { environment?: 'preview'; trigger?: 'mcp'; details?: string } => ({
    v: 1,
    id: f.id,
    project_id: f.projectId,
    endpoint_id: f.endpointId,
    path: f.path,
    method: f.method,
    status: f.status,
    code: f.code,
    duration_ms: f.durationMs,
    key_id: f.keyId,
    query: f.query,
    message: f.message,
    error_node_id: f.errorNodeId,
    time: new Date(f.arrivalMs).toISOString(),
    ...(f.preview ? { environment: 'preview' as const } : {}),
    ...(f.mcp === true ? { trigger: 'mcp' as const } : {}),
    ...(f.streamed === true ? { streamed: true } : {}),
    ...(f.cache == null ? {} : { cache: f.cache }),
    ...(f.details == null ? {} : { details: f.details }),
  });
  const details: RequestLogDetails = { headers: [['host', 'shop.example'], ['content-type', 'application/json']], body: '{"a":1}', body_bytes: 7, body_truncated: false, response_bytes: 12 };

  it.each([
    fields(),
    fields({ endpointId: null, keyId: null, code: 'endpoint_not_found', status: 404 }),
    fields({ path: '/we"ird\\path\n\u2028é', durationMs: 0 }),
    fields({ preview: true }),
    fields({ streamed: true }),
    fields({ preview: true, streamed: true }),
    fields({ mcp: true, streamed: true }),
    fields({ cache: 'hit', details: JSON.stringify(details) }),
    fields({ cache: 'miss', details: JSON.stringify({ ...details, body: null, body_bytes: null, response_bytes: null }) }),
    fields({ status: 400, code: 'bad_input', query: 'name=Ada&q=%22x%22&raw="quoted"', message: 'Name is "required"\n', errorNodeId: 'r1' }),
  ])('writes exactly what JSON.stringify writes, and the event schema accepts it', (f) => {
    const json = requestLogEventJson(f);
    expect(json).toBe(JSON.stringify(asObject(f)));
    expect(requestLogEventSchema.parse(JSON.parse(json))).toEqual({ environment: 'live', trigger: 'http', details: null, ...asObject(f) });
  });

  it('names the preview environment, and leaves it out (read as live) on live requests', () => {
    expect(requestLogEventSchema.parse(JSON.parse(requestLogEventJson(fields({ preview: true })))).environment).toBe('preview');
    expect(requestLogEventJson(fields())).not.toContain('environment');
  });

  it('cuts an over-long query and message to what the event keeps', () => {
    const event = JSON.parse(requestLogEventJson(fields({ query: 'q'.repeat(5000), message: 'm'.repeat(5000), status: 500, code: 'flow_error' })));
    expect(requestLogEventSchema.parse(event)).toMatchObject({ query: 'q'.repeat(2048), message: 'm'.repeat(1024) });
  });
});
