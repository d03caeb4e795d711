import { setOwn } from '../json';
import type { FlowRun } from '../runtime/flow-run';
import { lookupPath, toPathSegments } from './path-lookup';
import type { Reference, TemplateAst } from './template-ast';
import { toText } from './to-text';

export type Resolver<T = unknown> = (run: FlowRun) => T;

/** Maps parameter and variable names to their slot in `FlowRun.vars`. */
export interface SlotTable {
  param(name: string): number;
  variable(name: string): number;
}

/**
 * Turns template ASTs into closures once per prepared flow, so a run walks no AST and parses
 * nothing: a reference becomes a slot read or a property walk, text becomes one concatenation.
 */
export class ResolverFactory {
  constructor(private readonly slots: SlotTable) {}

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
        if (!keys.includes('__proto__')) {
          return (run) => {
            const object: Record<string, unknown> = {};
            for (let i = 0; i < keys.length; i++) object[keys[i]] = values[i](run);
            return object;
          };
        }
        return (run) => {
          const object: Record<string, unknown> = {};
          for (let i = 0; i < keys.length; i++) setOwn(object, keys[i], values[i](run));
          return object;
        };
      }
      case 'array': {
        const items = ast.items.map((item) => this.value(item));
        return (run) => items.map((item) => item(run));
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
      return (run) => before + toText(reference(run)) + after;
    }
    return (run) => {
      let text = literals[0];
      for (let i = 0; i < references.length; i++) text += toText(references[i](run)) + literals[i + 1];
      return text;
    };
  }

  private reference(ref: Reference): Resolver {
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
      case 'invalid':
        throw new Error(`Reference {${ref.text}} is not valid`);
    }
  }
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
