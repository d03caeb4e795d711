import { z } from 'zod';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/**
 * Per-parse error map: phrases that read after a field title ("Input Text is required").
 * Custom refinements supply their own message in the same style.
 */
export function describeIssue(issue: RawIssue): string | undefined {
  if (isMissing(issue)) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'invalid_union':
      return 'has a value of the wrong type';
    case 'too_big':
      return issue.origin === 'array'
        ? `can have at most ${String(issue.maximum)} items`
        : issue.origin === 'string'
          ? `must be at most ${String(issue.maximum)} characters long`
          : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string' && issue.minimum === 1) return 'must not be empty';
      return issue.origin === 'array'
        ? `needs at least ${String(issue.minimum)} items`
        : issue.origin === 'string'
          ? `must be at least ${String(issue.minimum)} characters long`
          : `must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return 'has an invalid format';
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

/** A field absent from the input (unions report it as `invalid_union`, other schemas as `invalid_type`). */
const isMissing = (issue: RawIssue | Issue): boolean =>
  (issue.code === 'invalid_type' || issue.code === 'invalid_union') && 'input' in issue && issue.input === undefined;

/** Parses with readable messages; issues keep their input so a missing field can be told apart. */
export const parseForDiagnostics = <T extends z.ZodType>(schema: T, value: unknown) =>
  schema.safeParse(value, { error: describeIssue, reportInput: true });

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** `headers.3.key` */
export const issueField = (issue: Issue): string | null => (issue.path.length === 0 ? null : issue.path.map(String).join('.'));

/** Stable code of a schema finding: `required_field`, `too_many_<field>` or `invalid_field`. */
export function issueCode(issue: Issue): string {
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  if (isMissing(issue)) return 'required_field';
  if (issue.code === 'too_big' && issue.origin === 'array' && issue.path.length > 0) return `too_many_${String(issue.path[issue.path.length - 1])}`;
  return 'invalid_field';
}

/**
 * "Input Text is required", "Query parameter 1: key must not be empty": the top-level field's
 * title (from `.meta({ title })`) followed by the issue's phrase.
 */
export function issueMessage(issue: Issue, shape: Record<string, z.ZodType> | undefined): string {
  if (issue.path.length === 0) return capitalise(issue.message);
  return `${fieldPhrase(issue.path.map(String), shape)} ${issue.message}`;
}

/**
 * The field a path names, as a person counts: `query_params.0.key` is "Query parameter 1: key"
 * (the list's `itemTitle`, else its title), `name` is "Name".
 */
export function fieldPhrase(path: readonly string[], shape: Record<string, z.ZodType> | undefined): string {
  const [top, ...rest] = path;
  const schema = shape?.[top];
  const title = (schema && fieldTitle(schema)) ?? top;
  if (rest.length === 0) return title;
  const [index, ...inner] = rest;
  if (!/^\d+$/.test(index)) return `${title} (${rest.join('.')})`;
  const item = `${(schema && metaOf(schema, 'itemTitle')) ?? title} ${Number(index) + 1}`;
  return inner.length === 0 ? item : `${item}: ${inner.join('.')}`;
}

export function fieldTitle(schema: z.ZodType): string | undefined {
  return metaOf(schema, 'title');
}

/** A `.meta()` string, looked up through optional/default wrappers. */
function metaOf(schema: z.ZodType, key: 'title' | 'itemTitle'): string | undefined {
  const value = z.globalRegistry.get(schema)?.[key];
  if (typeof value === 'string') return value;
  const inner = (schema as { unwrap?: () => z.ZodType }).unwrap;
  return typeof inner === 'function' ? metaOf(inner.call(schema), key) : undefined;
}


const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
