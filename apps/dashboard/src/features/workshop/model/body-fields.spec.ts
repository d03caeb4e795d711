import { fieldsOf, freshFieldName, schemaOfType, withFields } from './body-fields';

describe('the Body editor model', () => {
  const schema = { type: 'object' as const, required: ['customer'], properties: { customer: { type: 'string' as const }, items: { type: 'array' as const, items: { type: 'integer' as const } } } };

  it('lists an object schema as fields with their required flag, and writes them back in order', () => {
    const fields = fieldsOf(schema);
    expect(fields.map((field) => [field.name, field.required])).toEqual([
      ['customer', true],
      ['items', false],
    ]);
    const renamed = withFields(schema, [{ ...fields[1], required: true }, { ...fields[0], name: 'client' }]);
    expect(renamed).toEqual({ type: 'object', required: ['items', 'client'], properties: { items: schema.properties.items, client: { type: 'string' } } });
  });

  it('drops `required` when no field is required, and names new fields apart from their siblings', () => {
    expect(withFields(schema, fieldsOf(schema).map((field) => ({ ...field, required: false })))).not.toHaveProperty('required');
    expect(freshFieldName([{ name: 'field', schema: {}, required: false }, { name: 'field_2', schema: {}, required: false }])).toBe('field_3');
    expect(schemaOfType('list')).toEqual({ type: 'array', items: { type: 'string' } });
  });
});
