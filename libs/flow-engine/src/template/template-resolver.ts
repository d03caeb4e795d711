import { setOwn } from '../json';
import type { FlowRun } from '../runtime/flow-run';
import { lookupPath, toPathSegments } from './path-lookup';
import type { Reference, TemplateAst } from './template-ast';
import { valueSize } from '../runtime/value-size';
import { toText } from './to-text';
import { errorVariable } from './error-variable';

export type Resolver<T = unknown> = (run: FlowRun) => T;

/** Maps parameter and variable names to their slot in `FlowRun.vars`. */
export interface SlotTable {
  param(name: string): number;
  variable(name: string): number;
  /** A function's input (`{input.NAME}`). */
  input(name: string): number;
}

/**
 * Turns template ASTs into closures once per prepared flow, so a run walks no AST and parses
 * nothing: a reference becomes a slot read or a property walk, text becomes one concatenation.
 */
export class ResolverFactory {
  /** `caught`: names of blocks whose `error` handle is connected; `{NAME.error…}` reads their failure. */
  constructor(
    private readonly slots: SlotTable,
    private readonly caught: ReadonlySet<string> = new Set(),
  ) {}

  /** The template's value with its JSON type (a lone reference keeps number, object, …). */
  value(ast: TemplateAst): Resolver {
    switch (ast.kind) {
      case 'literal': {
        const value = deepFreeze(ast.value);
        return () => value;
      }
      case 'reference':
        return this.reference(ast.ref);
      case 'text':
        return this.interpolation(ast.parts);
      case 'object': {
        const keys = ast.entries.map(([key]) => key);
        const values = ast.entries.map(([, item]) => this.value(item));
        // Each part is within the limit; many parts referring to large values would not be.
        const keysSize = keys.reduce((size, key) => size + key.length + 4, 2);
        if (!keys.includes('__proto__')) {
          return (run) => {
            const object: Record<string, unknown> = {};
            let size = keysSize;
            for (let i = 0; i < keys.length; i++) size += sizeWithin(run, (object[keys[i]] = values[i](run)), size);
            return object;
          };
        }
        return (run) => {
          const object: Record<string, unknown> = {};
          let size = keysSize;
          for (let i = 0; i < keys.length; i++) {
            const value = values[i](run);
            size += sizeWithin(run, value, size);
            setOwn(object, keys[i], value);
          }
          return object;
        };
      }
      case 'array': {
        const items = ast.items.map((item) => this.value(item));
        return (run) => {
          let size = 2 + items.length;
          return items.map((item) => {
            const value = item(run);
            size += sizeWithin(run, value, size);
            return value;
          });
        };
      }
    }
  }

  /** The template read as text (see `toText`). */
  text(ast: TemplateAst): Resolver<string> {
    if (ast.kind === 'literal') {
      const text = toText(ast.value);
      return () => text;
    }
    if (ast.kind === 'text') return this.interpolation(ast.parts);
    const value = this.value(ast);
    return (run) => toText(value(run));
  }

  private interpolation(parts: ReadonlyArray<string | Reference>): Resolver<string> {
    // Normalised to literal, reference, literal, …, literal so the loop has no branches.
    const literals: string[] = [''];
    const references: Resolver[] = [];
    for (const part of parts) {
      if (typeof part === 'string') literals[literals.length - 1] += part;
      else {
        references.push(this.reference(part));
        literals.push('');
      }
    }
    if (references.length === 1) {
      const [before, after] = literals;
      const [reference] = references;
      const fixed = before.length + after.length;
      return (run) => {
        const text = textWithin(run, reference(run), fixed);
        return before + text + after;
      };
    }
    // Checked part by part: `{local.v}{local.v}` doubles, and the doubling stops at the limit
    // before the text is made (joining texts is cheap; reading the joined text later is not).
    return (run) => {
      let text = literals[0];
      for (let i = 0; i < references.length; i++) text += textWithin(run, references[i](run), text.length) + literals[i + 1];
      run.fit(text.length, 'text');
      return text;
    };
  }

  private reference(ref: Reference): Resolver {
    if (ref.source === 'var' && ref.via === 'block' && ref.path[0] === 'error' && this.caught.has(requireName(ref))) {
      const slot = this.slots.variable(errorVariable(requireName(ref)));
      const below = toPathSegments(ref.path.slice(1));
      return below.length === 0 ? (run) => run.vars[slot] : (run) => lookupPath(run.vars[slot], below);
    }
    const path = toPathSegments(ref.path);
    const base = this.referenceBase(ref);
    if (path.length === 0) return base;
    return (run) => lookupPath(base(run), path);
  }

  private referenceBase(ref: Reference): Resolver {
    switch (ref.source) {
      case 'param': {
        const slot = this.slots.param(requireName(ref));
        return (run) => run.vars[slot];
      }
      case 'var': {
        const slot = this.slots.variable(requireName(ref));
        return (run) => run.vars[slot];
      }
      case 'input': {
        const slot = this.slots.input(requireName(ref));
        return (run) => run.vars[slot];
      }
      case 'schedule': {
        const field = requireName(ref) === 'name' ? 'name' : 'time';
        return (run) => run.request.schedule?.[field] ?? null;
      }
      case 'body':
        return (run) => (run.request.body === undefined ? null : run.request.body);
      case 'header': {
        const path = toPathSegments([requireName(ref)]);
        return (run) => headerText(lookupPath(run.request.headers, path));
      }
      case 'headers':
        return (run) => run.request.headers;
      case 'method':
        return (run) => run.request.method;
      case 'path':
        return (run) => run.request.path;
      case 'current_time':
        return (run) => run.now().toISOString();
      case 'current_date':
        return (run) => run.now().toISOString().slice(0, 10);
      case 'uuid':
        return (run) => run.uuid();
      case 'secret': {
        const name = requireName(ref);
        return (run) => run.secret(name);
      }
      case 'invalid':
        throw new Error(`Reference {${ref.text}} is not valid`);
    }
  }
}

/** The size `value` adds to a list or object of `sizeSoFar`; throws once the whole is over the limit. */
function sizeWithin(run: FlowRun, value: unknown, sizeSoFar: number): number {
  const limit = run.limits.maxValueChars;
  const size = typeof value === 'string' ? value.length + 2 : valueSize(value, limit - sizeSoFar);
  run.fit(sizeSoFar + size, 'value');
  return size;
}

/**
 * `value` as text, when it fits beside `sizeSoFar` characters. A list or object is written out
 * before it is measured: every one a run holds is already within the limit (or the body limit),
 * so writing it costs no more than measuring it would.
 */
function textWithin(run: FlowRun, value: unknown, sizeSoFar: number): string {
  if (typeof value === 'string') {
    run.fit(sizeSoFar + value.length, 'text');
    return value;
  }
  const text = toText(value);
  run.fit(sizeSoFar + text.length, 'text');
  return text;
}

/** Repeated headers (node:http gives arrays for a few) read as one comma-separated value. */
const headerText = (value: unknown): unknown => (Array.isArray(value) ? value.join(', ') : value);

function requireName(ref: Reference): string {
  if (ref.name === undefined || ref.name === '') throw new Error(`Reference {${ref.text}} has no name`);
  return ref.name;
}

/** Literal values are shared by every run, so nobody may change them. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
