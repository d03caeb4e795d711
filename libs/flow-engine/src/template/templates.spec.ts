import { codes, diagnostics, request, respondBody, respondingFlow, runFlow, settings } from '../testing/flow-fixtures';

const body = { n: 42, flag: true, obj: { a: 1 }, list: [1, 'two'], nothing: null, text: 'hi' };

describe('template resolution', () => {
  it('keeps the JSON type of a value that is exactly one reference', async () => {
    const flow = respondingFlow([], { n: '{body.n}', flag: '{body.flag}', obj: '{body.obj}', list: '{body.list}', nothing: '{body.nothing}', text: '{body.text}' });
    await expect(respondBody(flow, { request: request({ body }) })).resolves.toEqual(body);
  });

  it('interpolates references inside longer text, writing objects and lists as JSON', async () => {
    const flow = respondingFlow([], { line: 'n={body.n} flag={body.flag} obj={body.obj} list={body.list}' });
    await expect(respondBody(flow, { request: request({ body }) })).resolves.toEqual({ line: 'n=42 flag=true obj={"a":1} list=[1,"two"]' });
  });

  it('gives null for a missing value on its own and empty text inside longer text', async () => {
    const flow = respondingFlow([], { alone: '{body.missing}', inside: 'Hello {body.missing}!' });
    await expect(respondBody(flow, { request: request({ body: {} }) })).resolves.toEqual({ alone: null, inside: 'Hello !' });
  });

  it('leaves braces that do not form a reference as literal text, so JSON text stays intact', async () => {
    const flow = respondingFlow([], { json: '{ "a": {body.n}, "b": {} }', spaced: '{ body.n }', doubled: '{{body.n}}', odd: '{body.n', empty: '{}' });
    await expect(respondBody(flow, { request: request({ body }) })).resolves.toEqual({
      json: '{ "a": 42, "b": {} }',
      spaced: '{ body.n }',
      doubled: '{42}',
      odd: '{body.n',
      empty: '{}',
    });
  });

  it('follows dotted paths with list indexes into webhook bodies', async () => {
    const webhook = { eventId: 'evt_1', data: { fields: [{ value: 'Ada' }, { value: 'ada@example.com' }] } };
    const flow = respondingFlow([], { event: '{body.eventId}', name: '{body.data.fields.0.value}', email: '{request.body.data.fields.1.value}', past: '{body.data.fields.5.value}' });
    await expect(respondBody(flow, { request: request({ body: webhook }) })).resolves.toEqual({ event: 'evt_1', name: 'Ada', email: 'ada@example.com', past: null });
  });

  it('follows own properties only: inherited names and list lengths read as null', async () => {
    const flow = respondingFlow([], { inherited: '{body.obj.toString}', length: '{body.list.length}', intoText: '{body.text.length}' });
    await expect(respondBody(flow, { request: request({ body }) })).resolves.toEqual({ inherited: null, length: null, intoText: null });
  });

  it('refuses __proto__, constructor and prototype in a reference path', () => {
    const found = diagnostics(respondingFlow([], { a: '{body.__proto__}', b: '{body.x.constructor}', c: '{local.prototype}' }));
    expect(codes(found)).toEqual(['forbidden_path_segment', 'forbidden_path_segment', 'forbidden_path_segment']);
  });

  it('lets prototype-pollution keys in a request body do nothing', async () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "ok": 1}') as unknown;
    const flow = respondingFlow([{ type: 'set_variable', config: { name: 'copy', value: '{body}' } }], { copy: '{local.copy}', polluted: '{body.polluted}', ok: '{body.ok}' });
    const result = (await respondBody(flow, { request: request({ body: hostile }) })) as Record<string, unknown>;
    expect(result.polluted).toBeNull();
    expect(result.ok).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('drops a "__proto__" key of a Respond body config without touching any prototype', async () => {
    const config = JSON.parse('{"__proto__": {"polluted": "{body.text}"}, "x": "{body.n}"}') as Record<string, string>;
    const result = (await respondBody(respondingFlow([], config), { request: request({ body }) })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(result).toEqual({ x: 42 });
    expect(result.polluted).toBeUndefined();
  });

  it('reads header names case-insensitively', async () => {
    const flow = respondingFlow([], { key: '{request.headers.X-Api-Key}', lower: '{request.headers.x-api-key}' });
    await expect(respondBody(flow, { request: request({ headers: { 'x-api-key': 'k1' } }) })).resolves.toEqual({ key: 'k1', lower: 'k1' });
  });

  it('reads a repeated header as one comma-separated value', async () => {
    const flow = respondingFlow([], { cookies: '{request.headers.set-cookie}' });
    await expect(respondBody(flow, { request: request({ headers: { 'set-cookie': ['a=1', 'b=2'] } }) })).resolves.toEqual({ cookies: 'a=1, b=2' });
  });

  it('gives {current_time} as ISO 8601 and {current_date} as YYYY-MM-DD from one clock reading', async () => {
    const now = () => new Date('2025-03-04T05:06:07.089Z');
    const flow = respondingFlow([], { time: '{current_time}', date: '{current_date}', line: 'at {current_time}' });
    await expect(respondBody(flow, { ports: { now } })).resolves.toEqual({ time: '2025-03-04T05:06:07.089Z', date: '2025-03-04', line: 'at 2025-03-04T05:06:07.089Z' });
  });

  it('gives a fresh {uuid} each time it is read', async () => {
    const flow = respondingFlow([], { a: '{uuid}', b: '{uuid}' });
    const result = (await respondBody(flow)) as { a: string; b: string };
    expect(result.a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.b).not.toBe(result.a);
  });

  it('reads the request method and path', async () => {
    const flow = respondingFlow([], { method: '{request.method}', path: '{request.path}' });
    await expect(respondBody(flow, { request: request({ method: 'PATCH', path: '/orders' }) })).resolves.toEqual({ method: 'PATCH', path: '/orders' });
  });

  it('keeps non-string JSON in a Respond body as it is', async () => {
    const flow = respondingFlow([], { n: 1.5, yes: false, none: null, nested: { list: [1, { deep: '{body.text}' }] } });
    await expect(respondBody(flow, { request: request({ body }) })).resolves.toEqual({ n: 1.5, yes: false, none: null, nested: { list: [1, { deep: 'hi' }] } });
  });

  it('reports a reference with an unknown root', () => {
    const found = diagnostics(respondingFlow([], { a: '{parms.x}', b: '{request.cookies}' }));
    expect(codes(found)).toEqual(['unknown_reference', 'unknown_reference']);
    expect(found[0]).toMatchObject({ severity: 'error', node_id: 'respond', field: 'body.a' });
    expect(found[0].message).toContain('{parms.x}');
  });

  it('warns that a body reference is always null on a GET endpoint', async () => {
    const flow = respondingFlow([], { a: '{body.x}' });
    expect(diagnostics(flow, { settings: settings({ method: 'GET' }) })).toMatchObject([{ severity: 'warning', code: 'body_unavailable' }]);
    await expect(runFlow(flow, { settings: settings({ method: 'GET' }), request: request({ method: 'GET' }) })).resolves.toEqual({ type: 'response', status: 200, body: { a: null } });
  });
});
