import { validate } from '@readme/openapi-parser';
import { compileFlow } from '../compile/compile-flow';
import type { CompiledFlow } from '../compile/compiled-flow';
import type { EndpointSettings } from '../schema/endpoint-settings.schema';
import type { FlowDocument } from '../schema/flow-document.schema';
import { graphFlow, linearFlow, settings } from '../testing/flow-fixtures';
import { describeApi, type OpenApiDocument } from './describe-api';

const BASE_URL = 'https://shop.example.com';

function compiled(flow: FlowDocument, endpoint: EndpointSettings): CompiledFlow {
  const result = compileFlow({ flow, settings: endpoint, context: { email_verified_domains: ['example.com'] } });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return JSON.parse(JSON.stringify(result.compiled)) as CompiledFlow;
}

function document(endpoints: Array<{ flow: FlowDocument; settings: EndpointSettings }>, requireAuth = false): OpenApiDocument {
  return describeApi({
    title: 'Shop',
    version: '3',
    baseUrl: BASE_URL,
    requireAuth,
    endpoints: endpoints.map((endpoint) => ({ settings: endpoint.settings, compiled: compiled(endpoint.flow, endpoint.settings) })),
  });
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const operation = (doc: OpenApiDocument, path: string, method: string): Json => doc.paths[path]![method] as Json;
const responseSchema = (op: Json, status: number): Json => op.responses[String(status)].content['application/json'].schema;

async function expectValid(doc: OpenApiDocument): Promise<void> {
  // The validator dereferences in place: give it a copy.
  const result = await validate(JSON.parse(JSON.stringify(doc)));
  expect(result.valid ? [] : result.errors).toEqual([]);
}

describe('describeApi', () => {
  it('describes a GET endpoint: id, summary, query parameters with defaults, a typed Respond body', async () => {
    const endpoint = settings({
      name: 'List orders by status',
      method: 'GET',
      path: '/orders',
      query_params: [
        { key: 'status', default: 'open' },
        { key: 'page', default: null },
      ],
    });
    const flow = linearFlow([
      { type: 'set_variable', config: { name: 'limit', value: 20 } },
      { type: 'set_variable', config: { name: 'shape', value: { ok: true } } },
      {
        type: 'respond',
        config: {
          body: {
            status: '{params.status}',
            page: '{params.page}',
            limit: '{local.limit}',
            shape: '{local.shape}',
            title: 'Orders ({params.status})',
            version: 2,
            at: '{current_time}',
            id: '{uuid}',
          },
        },
      },
    ]);
    const doc = document([{ flow, settings: endpoint }]);
    await expectValid(doc);
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
    const op = operation(doc, '/orders', 'get');
    expect(op).toMatchObject({ operationId: 'listOrdersByStatus', summary: 'List orders by status' });
    expect(op.parameters).toEqual([
      { name: 'status', in: 'query', required: false, schema: { type: 'string', default: 'open' } },
      { name: 'page', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(op.requestBody).toBeUndefined();
    expect(op.security).toBeUndefined();
    expect(Object.keys(op.responses)).toEqual(['200', '500']);
    expect(responseSchema(op, 200)).toEqual({
      type: 'object',
      properties: {
        status: { type: 'string' },
        page: { type: ['string', 'null'] },
        limit: { type: 'integer', const: 20 },
        shape: { type: 'object', properties: { ok: { type: 'boolean', const: true } }, required: ['ok'] },
        title: { type: 'string' },
        version: { type: 'integer', const: 2 },
        at: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
      },
      required: ['status', 'page', 'limit', 'shape', 'title', 'version', 'at', 'id'],
    });
  });

  it('lists the body fields a POST flow reads, nested and by index, as JSON and as a form', async () => {
    const endpoint = settings({ name: 'Create order', method: 'POST', path: '/orders' });
    const flow = linearFlow([
      { type: 'set_variable', config: { name: 'city', value: '{request.body.address.city}' } },
      { type: 'respond', config: { status: 201, body: { email: '{body.email}', first: '{body.items.0}', city: '{local.city}' } } },
    ]);
    const doc = document([{ flow, settings: endpoint }]);
    await expectValid(doc);
    const op = operation(doc, '/orders', 'post');
    expect(op.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: {
        address: { type: 'object', properties: { city: {} } },
        email: {},
        items: { type: 'array', items: {} },
      },
    });
    expect(op.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({
      type: 'object',
      properties: { address: { type: 'string' }, email: { type: 'string' }, items: { type: 'string' } },
    });
    expect(Object.keys(op.responses)).toEqual(['201', '400', '413', '415', '500']);
    expect(responseSchema(op, 400).properties.code).toEqual({ type: 'string', enum: ['invalid_json', 'invalid_request'] });
  });

  it('answers from every Respond and Return Error on the branches, and 200 {} where a branch has neither', async () => {
    const endpoint = settings({ name: 'Find', method: 'GET', path: '/find', query_params: [{ key: 'id', default: null }] });
    const flow = graphFlow(
      [
        { id: 'c1', type: 'condition', config: { left: '{params.id}', operator: 'is_null' } },
        { id: 'e1', type: 'return_error', config: { status: 404, message: 'No such order', code: 'order_not_found' } },
        { id: 'c2', type: 'condition', config: { left: '{params.id}', operator: 'eq', right: 'legacy' } },
        { id: 'r1', type: 'respond', config: { body: { id: '{params.id}' } } },
        { id: 'e2', type: 'return_error', config: { status: 404, message: 'Gone: {params.id}' } },
      ],
      ['start>c1', 'c1:true>e1', 'c1:false>c2', 'c2:true>e2', 'c2:false>r1'],
    );
    const missingBranch = graphFlow(
      [
        { id: 'c1', type: 'condition', config: { left: 1, operator: 'eq', right: 1 } },
        { id: 'r1', type: 'respond', config: { status: 202, body: 'accepted' } },
      ],
      ['start>c1', 'c1:true>r1'],
    );
    const doc = document([
      { flow, settings: endpoint },
      { flow: missingBranch, settings: settings({ name: 'Maybe', method: 'DELETE', path: '/maybe' }) },
    ]);
    await expectValid(doc);
    const find = operation(doc, '/find', 'get');
    expect(Object.keys(find.responses)).toEqual(['200', '404', '500']);
    expect(responseSchema(find, 200)).toEqual({ type: 'object', properties: { id: { type: ['string', 'null'] } }, required: ['id'] });
    expect(find.responses['404'].description).toBe('No such order; Error returned by the flow');
    expect(responseSchema(find, 404)).toEqual({
      type: 'object',
      properties: { success: { type: 'boolean', const: false }, code: { type: 'string', enum: ['not_found', 'order_not_found'] }, message: { type: 'string' } },
      required: ['success', 'code', 'message'],
    });
    const maybe = operation(doc, '/maybe', 'delete');
    expect(responseSchema(maybe, 202)).toEqual({ type: 'string', const: 'accepted' });
    expect(responseSchema(maybe, 200)).toEqual({ type: 'object', maxProperties: 0 });
  });

  it('types a reference by the block that wrote it before the Respond, down to its fields', async () => {
    const flow = linearFlow([
      { type: 'match_regex', config: { input: 'a1', pattern: '(?<digit>\\d)', ref: 'm' } },
      { type: 'http_request', config: { name: 'inventory', url: 'https://example.com/stock', method: 'GET' } },
      { type: 'manipulate_text', config: { input: 'a,b', operation: 'split', delimiter: ',', ref: 'parts' } },
      { type: 'set_variable', config: { name: 'copy', value: '{result.m.isMatch}' } },
      {
        type: 'respond',
        config: {
          body: {
            found: '{result.m.isMatch}',
            digit: '{result.m.digit}',
            stock: '{inventory.status}',
            stock_body: '{inventory.body.count}',
            parts: '{result.parts}',
            copy: '{local.copy}',
          },
        },
      },
    ]);
    const doc = document([{ flow, settings: settings({ name: 'Check', method: 'GET', path: '/check' }) }]);
    await expectValid(doc);
    expect(responseSchema(operation(doc, '/check', 'get'), 200).properties).toEqual({
      found: { type: 'boolean' },
      digit: { type: ['string', 'null'] },
      stock: { type: ['integer', 'null'] },
      stock_body: {},
      parts: { type: 'array', items: { type: 'string' } },
      copy: { type: 'boolean' },
    });
  });

  it('combines the types of a name written differently on two branches', async () => {
    const flow = graphFlow(
      [
        { id: 'c1', type: 'condition', config: { left: '{params.n}', operator: 'is_null' } },
        { id: 'a', type: 'set_variable', config: { name: 'v', value: 1 } },
        { id: 'b', type: 'set_variable', config: { name: 'v', value: 'x {params.n}' } },
        { id: 'r1', type: 'respond', config: { body: '{local.v}' } },
        { id: 'r2', type: 'respond', config: { body: '{local.v}' } },
      ],
      ['start>c1', 'c1:true>a', 'c1:false>b', 'a>r1', 'b>r2'],
    );
    const doc = document([{ flow, settings: settings({ name: 'V', method: 'GET', path: '/v', query_params: [{ key: 'n', default: null }] }) }]);
    await expectValid(doc);
    expect(responseSchema(operation(doc, '/v', 'get'), 200)).toEqual({ anyOf: [{ type: 'integer', const: 1 }, { type: 'string' }] });
  });

  it('describes Stream Text as a 200 of Server-Sent Events, not a JSON body', async () => {
    const flow = linearFlow([{ type: 'stream_text', config: { prompt: 'A story', max_tokens: 100 } }]);
    const doc = document([{ flow, settings: settings({ name: 'Story', method: 'GET', path: '/story' }) }]);
    await expectValid(doc);
    const ok = operation(doc, '/story', 'get').responses['200'];
    expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
    expect(ok.content['text/event-stream'].schema).toMatchObject({ type: 'string', description: expect.stringContaining('event: done') });
    expect(ok.description).toBe("The model's text as Server-Sent Events, as it is written");
  });

  it('asks for a key as the endpoint says: 401 and 429 with their headers, 403 for admin endpoints', async () => {
    const respond = linearFlow([{ type: 'respond', config: { body: { ok: true } } }]);
    const doc = document([
      { flow: respond, settings: settings({ name: 'Public', method: 'GET', path: '/public' }) },
      { flow: respond, settings: settings({ name: 'Mine', method: 'GET', path: '/mine', auth: 'user' }) },
      { flow: respond, settings: settings({ name: 'Admin', method: 'GET', path: '/admin-only', auth: 'admin' }) },
    ]);
    await expectValid(doc);
    expect(operation(doc, '/public', 'get').security).toBeUndefined();
    const mine = operation(doc, '/mine', 'get');
    expect(mine.security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(mine.responses)).toEqual(['200', '401', '429', '500', '503']);
    expect(Object.keys(mine.responses['429'].headers)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    expect(Object.keys(mine.responses['200'].headers)).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(responseSchema(mine, 401).properties.code).toEqual({ type: 'string', enum: ['invalid_api_key', 'missing_api_key'] });
    const admin = operation(doc, '/admin-only', 'get');
    expect(Object.keys(admin.responses)).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(responseSchema(admin, 403).properties.code).toEqual({ type: 'string', const: 'insufficient_permission' });
    expect((doc.components as Json).securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });

    const locked = document([{ flow: respond, settings: settings({ name: 'Public', method: 'GET', path: '/public' }) }], true);
    expect(operation(locked, '/public', 'get').security).toEqual([{ apiKey: [] }]);
    expect(Object.keys(operation(locked, '/public', 'get').responses)).toEqual(['200', '401', '429', '500', '503']);
  });

  it('groups methods under one path, keeps operation ids unique and paths without /api', async () => {
    const respond = linearFlow([{ type: 'respond', config: { body: {} } }]);
    const doc = document([
      { flow: respond, settings: settings({ name: 'Orders', method: 'POST', path: '/orders' }) },
      { flow: respond, settings: settings({ name: 'Orders', method: 'GET', path: '/orders' }) },
      { flow: respond, settings: settings({ name: '2024 report!', method: 'GET', path: '/reports/2024' }) },
    ]);
    await expectValid(doc);
    expect(Object.keys(doc.paths)).toEqual(['/orders', '/reports/2024']);
    expect(Object.keys(doc.paths['/orders']!)).toEqual(['get', 'post']);
    expect(operation(doc, '/orders', 'get').operationId).toBe('orders');
    expect(operation(doc, '/orders', 'post').operationId).toBe('orders2');
    expect(operation(doc, '/reports/2024', 'get').operationId).toBe('op2024Report');
  });

  it('validates for a project whose flows use every block type', async () => {
    const flow = graphFlow(
      [
        { id: 'v', type: 'set_variable', config: { name: 'greeting', value: 'Hello {body.name}' } },
        { id: 'enc', type: 'encode_text', config: { input: '{local.greeting}', encoding: 'base64', ref: 'b64' } },
        { id: 'dec', type: 'decode_text', config: { input: '{result.b64}', encoding: 'base64', ref: 'plain' } },
        { id: 'up', type: 'manipulate_text', config: { input: '{result.plain}', operation: 'uppercase', ref: 'loud' } },
        { id: 'rx', type: 'match_regex', config: { input: '{result.loud}', pattern: 'HELLO', ref: 'm' } },
        { id: 'http', type: 'http_request', config: { name: 'api', url: 'https://example.com/x', method: 'POST', body: { q: '{body.q}' } } },
        { id: 'img', type: 'manipulate_image', config: { image_url: 'https://example.com/a.png', operation: 'grayscale', value: 100, ref: 'image' } },
        { id: 'gen', type: 'generate_text', config: { prompt: 'Summarise {body.text}', ref: 'summary' } },
        { id: 'mail', type: 'send_email', config: { to: 'a@example.com', from: 'Shop <shop@example.com>', subject: 'Hi', body: '{local.greeting}' } },
        { id: 'c', type: 'condition', config: { left: '{result.m.isMatch}', operator: 'eq', right: true } },
        {
          id: 'ok',
          type: 'respond',
          config: { body: { greeting: '{local.greeting}', loud: '{result.loud}', status: '{api.status}', image: '{result.image}', summary: '{result.summary}' } },
        },
        { id: 'no', type: 'return_error', config: { status: 422, message: 'No greeting' } },
      ],
      ['start>v', 'v>enc', 'enc>dec', 'dec>up', 'up>rx', 'rx>http', 'http>img', 'img>gen', 'gen>mail', 'mail>c', 'c:true>ok', 'c:false>no'],
    );
    const doc = document([{ flow, settings: settings({ name: 'Everything', method: 'POST', path: '/everything', auth: 'admin' }) }], true);
    await expectValid(doc);
    const op = operation(doc, '/everything', 'post');
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties)).toEqual(['name', 'q', 'text']);
    expect(responseSchema(op, 200).properties).toEqual({
      greeting: { type: 'string' },
      loud: { type: 'string' },
      status: { type: ['integer', 'null'] },
      image: { type: 'string', format: 'uri' },
      summary: { type: ['string', 'null'] },
    });
    expect(responseSchema(op, 422).properties.code).toEqual({ type: 'string', const: 'unprocessable_entity' });
    // Blocks that wait on other services may run into the flow's deadline.
    expect(responseSchema(op, 504).properties.code).toEqual({ type: 'string', const: 'flow_timeout' });
  });

  it('is a valid document with no live endpoint', async () => {
    const doc = document([]);
    await expectValid(doc);
    expect(doc.paths).toEqual({});
    expect(doc.info).toMatchObject({ title: 'Shop', version: '3' });
  });
  it('types the rows of the table blocks from the columns of their table', async () => {
    const tables = [{ name: 'orders', columns: [{ name: 'email', type: 'text' as const, required: true }, { name: 'total', type: 'number' as const }] }];
    const endpoint = settings({ method: 'GET', path: '/orders' });
    const flow = linearFlow([
      { type: 'query_rows', config: { table: 'orders', ref: 'found' } },
      { type: 'respond', config: { body: { orders: '{result.found.rows}', count: '{result.found.count}', first: '{result.found.rows.0.total}' } } },
    ]);
    const doc = describeApi({ title: 'Shop', version: '1', baseUrl: BASE_URL, requireAuth: false, endpoints: [{ settings: endpoint, compiled: compiled(flow, endpoint) }], tables });
    const body = responseSchema(operation(doc, '/orders', 'get'), 200);
    expect(body.properties.orders.items.properties).toEqual({
      id: { type: 'string', format: 'uuid' },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
      email: { type: 'string' },
      total: { type: ['number', 'null'] },
    });
    expect(body.properties.count).toEqual({ type: 'integer', minimum: 0 });
    expect(body.properties.first).toEqual({ type: ['number', 'null'] });
    await expectValid(doc);
  });
});
