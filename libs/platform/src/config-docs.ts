import type { z } from 'zod';

/** One environment variable as the docs list it: read from an app's zod schema. */
export interface DocumentedVariable {
  name: string;
  /** Markdown: the default in code font, or the `defaultText` of the variable's `.meta()`, or "—". */
  defaultText: string;
  /** The variable's `.describe()` text; undefined when it has none (the docs generator refuses that). */
  description: string | undefined;
}

type AnySchema = z.core.$ZodType;

/** The object schema under refinements and transforms (`z.object(…).refine(…).transform(…)`). */
function objectShape(schema: AnySchema): Record<string, AnySchema> {
  const def = schema._zod.def as { type: string; in?: AnySchema; shape?: Record<string, AnySchema> };
  if (def.type === 'pipe' && def.in) return objectShape(def.in);
  if (def.type === 'object' && def.shape) return def.shape;
  throw new Error(`not an object schema (${def.type})`);
}

/** The value `.default(…)` gives, looked for under transforms, refinements and `.optional()`. */
function defaultValue(schema: AnySchema): { found: boolean; value?: unknown } {
  const def = schema._zod.def as { type: string; in?: AnySchema; innerType?: AnySchema; defaultValue?: unknown };
  if (def.type === 'default') return { found: true, value: def.defaultValue };
  const inner = def.type === 'pipe' ? def.in : def.innerType;
  return inner ? defaultValue(inner) : { found: false };
}

function metaOf(schema: AnySchema): { description?: string; defaultText?: string } {
  return (schema as { meta?: () => { description?: string; defaultText?: string } | undefined }).meta?.() ?? {};
}

function formatDefault(schema: AnySchema): string {
  const meta = metaOf(schema);
  if (meta.defaultText !== undefined) return meta.defaultText;
  const { found, value } = defaultValue(schema);
  if (!found || value === undefined || value === '') return '—';
  return `\`${String(value)}\``;
}

/** Every variable of a config schema, in the schema's order. */
export function documentedVariables(schema: AnySchema): DocumentedVariable[] {
  return Object.entries(objectShape(schema)).map(([name, field]) => ({
    name,
    defaultText: formatDefault(field),
    description: metaOf(field).description,
  }));
}
