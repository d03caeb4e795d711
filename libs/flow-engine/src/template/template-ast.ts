import { z } from 'zod';
import type { JsonValue } from '../json';

/**
 * Where a reference reads from. `var` covers `{local.X}`, `{result.X}` and `{BLOCK_NAME…}` (one
 * namespace: a later block with the same name overrides). `input` is a function's `{input.NAME}`; `secret` is `{secrets.NAME}`, a value
 * of the project's secrets given to the run (never stored in the flow). `invalid` only appears in flows that
 * fail validation; a compiled flow never contains it.
 */
export const REFERENCE_SOURCES = [
  'param',
  'var',
  'body',
  'header',
  'headers',
  'method',
  'path',
  'current_time',
  'current_date',
  'uuid',
  'secret',
  'input',
  'schedule',
  'invalid',
] as const;
export type ReferenceSource = (typeof REFERENCE_SOURCES)[number];

export interface Reference {
  source: ReferenceSource;
  /** Parameter, variable, secret or header name (headers lowercased). */
  name?: string;
  /** Own-property path below the value; list indexes are decimal segments. */
  path: string[];
  /** The reference as written, without braces (`params.name`), for messages. */
  text: string;
  /** How a `var` reference was written: `local`, `result` or `block` (`{NAME.status}`). */
  via?: 'local' | 'result' | 'block';
}

/**
 * A pre-parsed template, plain JSON so it can be stored and cached.
 * - `literal`: no reference anywhere below; the value is used as is.
 * - `reference`: the whole string was exactly one reference; it keeps its JSON type.
 * - `text`: literal text and references interpolated into one string.
 * - `object` / `array`: JSON structures with templates among their leaves.
 */
export type TemplateAst =
  | { kind: 'literal'; value: JsonValue }
  | { kind: 'reference'; ref: Reference }
  | { kind: 'text'; parts: Array<string | Reference> }
  | { kind: 'object'; entries: Array<[string, TemplateAst]> }
  | { kind: 'array'; items: TemplateAst[] };

export const TEMPLATE_KINDS: ReadonlySet<string> = new Set(['literal', 'reference', 'text', 'object', 'array']);

export const referenceSchema: z.ZodType<Reference> = z.object({
  source: z.enum(REFERENCE_SOURCES),
  name: z.string().optional(),
  path: z.array(z.string()),
  text: z.string(),
  via: z.enum(['local', 'result', 'block']).optional(),
});

export const templateAstSchema: z.ZodType<TemplateAst> = z.lazy(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('literal'), value: z.json() }),
    z.object({ kind: z.literal('reference'), ref: referenceSchema }),
    z.object({ kind: z.literal('text'), parts: z.array(z.union([z.string(), referenceSchema])) }),
    z.object({ kind: z.literal('object'), entries: z.array(z.tuple([z.string(), templateAstSchema])) }),
    z.object({ kind: z.literal('array'), items: z.array(templateAstSchema) }),
  ]),
);

export const isTemplateAst = (value: unknown): value is TemplateAst =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && TEMPLATE_KINDS.has((value as { kind?: unknown }).kind as string);
