import { z } from 'zod';
import { blockCatalogue } from './catalogue';

const DESIGN_BLOCK_TYPES = [
  'start',
  'set_variable',
  'encode_text',
  'decode_text',
  'manipulate_text',
  'generate_text',
  'stream_text',
  'manipulate_image',
  'match_regex',
  'send_email',
  'http_request',
  'condition',
  'run_code',
  'for_each',
  'respond',
  'return_error',
  'query_rows',
  'get_row',
  'insert_row',
  'update_rows',
  'delete_rows',
  'call_function',
  'return_value',
];

const SAMPLE_CONFIGS: Record<string, Record<string, unknown>> = {
  start: {},
  set_variable: { name: 'greeting', value: 'Hello {params.name}' },
  encode_text: { input: '{local.x}', encoding: 'base64url', ref: 'enc' },
  decode_text: { input: '{local.x}', encoding: 'hex', ref: 'dec' },
  manipulate_text: { input: 'a,b', operation: 'split', delimiter: ',', ref: 'parts' },
  generate_text: { prompt: 'Hi {params.name}', model: 'claude-haiku', temperature: 0.5, ref: 'reply' },
  stream_text: { prompt: 'Tell {params.name} a story', max_tokens: 300 },
  manipulate_image: { image_url: '{params.url}', operation: 'blur', value: 4, ref: 'img' },
  match_regex: { input: '{body.text}', pattern: '(?<n>\\d+)', flags: 'i', ref: 'm' },
  send_email: { to: '{body.email}', from: 'Acme <hi@example.com>', subject: 'Hi', body: 'Hello' },
  http_request: { name: 'api', url: 'https://example.com', method: 'POST', headers: [{ key: 'X-A', value: '{params.a}' }], body: { a: 1 } },
  condition: { left: '{params.n}', operator: 'gt', right: '3' },
  run_code: { code: 'return input.a + input.b', inputs: [{ name: 'a', value: '{params.a}' }, { name: 'b', value: 2 }], ref: 'sum', timeout_ms: 50 },
  for_each: { list: '{body.items}', item: 'order', collect: { id: '{local.order.id}' }, concurrency: 4, ref: 'ids' },
  respond: { status: 201, body: { ok: '{local.x}' } },
  return_error: { status: 404, message: 'Not found' },
  query_rows: { table: 'orders', filter: [{ column: 'total', operator: 'gte', value: '{params.min}' }], sort: { column: 'total', direction: 'desc' }, limit: 10, ref: 'found' },
  get_row: { table: 'orders', id: '{params.id}', ref: 'order' },
  insert_row: { table: 'orders', values: { email: '{body.email}', total: 3 }, ref: 'order' },
  update_rows: { table: 'orders', filter: [{ column: 'id', operator: 'eq', value: '{params.id}' }], values: { paid: true }, ref: 'changed' },
  delete_rows: { table: 'orders', filter: [{ column: 'paid', operator: 'is_null' }], ref: 'gone' },
  call_function: { function: 'f0e1d2c3-0000-4000-8000-000000000000', args: { amount: '{body.amount}' }, ref: 'price' },
  return_value: { value: { total: '{input.amount}' } },
};

describe('block catalogue', () => {
  it('lists every block type of the design with a label, a category and a description', () => {
    expect(blockCatalogue.map((entry) => entry.type).sort()).toEqual([...DESIGN_BLOCK_TYPES].sort());
    for (const entry of blockCatalogue) {
      expect(entry.label).toMatch(/^[A-Z]/);
      expect(entry.category).toMatch(/^(trigger|data|text|logic|tables|integrations|output)$/);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });

  it.each(DESIGN_BLOCK_TYPES)('accepts an editor config for %s and keeps its templates as text', (type) => {
    const entry = blockCatalogue.find((candidate) => candidate.type === type);
    const parsed = entry?.configSchema.safeParse(SAMPLE_CONFIGS[type]);
    expect(parsed?.success).toBe(true);
    expect(JSON.stringify(parsed?.data)).not.toContain('"kind"');
  });

  it('tells the editor which blocks branch and which end the flow', () => {
    const flows = Object.fromEntries(blockCatalogue.map((entry) => [entry.type, entry.flow]));
    expect(flows).toMatchObject({ condition: 'branch', respond: 'end', return_error: 'end', set_variable: 'next', start: 'next' });
  });

  it('gives every field a title the configuration sidebar can show, through JSON Schema', () => {
    for (const entry of blockCatalogue) {
      const schema = z.toJSONSchema(entry.configSchema, { io: 'input' }) as { properties?: Record<string, { title?: string }> };
      for (const [field, property] of Object.entries(schema.properties ?? {})) expect([entry.type, field, typeof property.title]).toEqual([entry.type, field, 'string']);
    }
    const encode = blockCatalogue.find((entry) => entry.type === 'encode_text');
    expect(z.toJSONSchema(encode?.configSchema ?? z.object({}), { io: 'input' })).toMatchObject({ properties: { input: { title: 'Input Text' } } });
  });
});
