import { blockCatalogue } from '@flowgate/flow-engine';
import { blockFields, isFieldShown } from './block-fields';

const field = (type: string, key: string) => {
  const found = blockFields(type).find((candidate) => candidate.key === key);
  if (!found) throw new Error(`${type} has no field ${key}`);
  return found;
};

describe('settings fields derived from the block schemas', () => {
  it('labels every field of every block with its title from the catalogue', () => {
    for (const entry of blockCatalogue) for (const described of blockFields(entry.type)) expect(described.title).not.toBe(described.key);
  });

  it('reads kinds, options, defaults and templates from the schema', () => {
    expect(field('manipulate_text', 'operation')).toMatchObject({ kind: 'enum', title: 'Operation', options: expect.arrayContaining(['uppercase', 'replace']) });
    expect(field('manipulate_text', 'input')).toMatchObject({ kind: 'text', template: true, title: 'Input Text' });
    expect(field('manipulate_text', 'ref')).toMatchObject({ kind: 'string', referenceName: true, title: 'Reference Variable' });
    expect(field('respond', 'status')).toMatchObject({ kind: 'number', defaultValue: 200 });
    expect(field('respond', 'body')).toMatchObject({ kind: 'entries', template: true, title: 'JSON Response' });
    expect(field('set_variable', 'value')).toMatchObject({ kind: 'value', template: true });
    expect(field('http_request', 'headers')).toMatchObject({ kind: 'list', maxItems: 10 });
    expect(field('http_request', 'headers').itemFields.map((item) => [item.title, item.template])).toEqual([
      ['Name', false],
      ['Value', true],
    ]);
    expect(field('generate_text', 'temperature')).toMatchObject({ kind: 'number', nullable: true });
  });

  it('shows operation-dependent fields only when they apply', () => {
    expect(isFieldShown(field('manipulate_text', 'find'), { operation: 'replace' })).toBe(true);
    expect(isFieldShown(field('manipulate_text', 'find'), { operation: 'split' })).toBe(false);
    expect(isFieldShown(field('condition', 'right'), { operator: 'is_null' })).toBe(false);
    expect(isFieldShown(field('http_request', 'body'), { method: 'GET' })).toBe(false);
    expect(isFieldShown(field('http_request', 'body'), { method: 'POST' })).toBe(true);
  });
});
