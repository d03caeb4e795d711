/** The JSON Schema keywords the API description uses, checked against a value (tests only). */
export type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  maxProperties?: number;
};

const typeOf = (value: unknown): string[] => {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
};

/** Where `value` breaks `schema` (empty when it conforms), as `path: problem` lines. */
export function schemaProblems(schema: Schema, value: unknown, path = '$'): string[] {
  if (schema.anyOf) return schema.anyOf.some((branch) => schemaProblems(branch, value, path).length === 0) ? [] : [`${path}: matches no anyOf branch`];
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!typeOf(value).some((type) => allowed.includes(type))) return [`${path}: ${JSON.stringify(value)} is not ${allowed.join(' | ')}`];
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) problems.push(`${path}: is not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.some((item) => JSON.stringify(item) === JSON.stringify(value))) problems.push(`${path}: not in ${JSON.stringify(schema.enum)}`);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) problems.push(`${path}.${key}: is missing`);
    if (schema.maxProperties !== undefined && Object.keys(object).length > schema.maxProperties) problems.push(`${path}: too many properties`);
    for (const [key, item] of Object.entries(object)) {
      const sub = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (sub) problems.push(...schemaProblems(sub, item, `${path}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => problems.push(...schemaProblems(schema.items!, item, `${path}[${index}]`)));
  return problems;
}
