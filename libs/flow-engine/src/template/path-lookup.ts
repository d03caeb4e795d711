import { hasOwn } from '../json';

/** Path segments that would reach an object's prototype; refused when a flow is compiled. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface PathSegment {
  key: string;
  /** The segment as a list index, or -1 when it is not a canonical non-negative integer. */
  index: number;
}

const INDEX = /^(?:0|[1-9][0-9]{0,8})$/;

export function toPathSegments(path: readonly string[]): PathSegment[] {
  return path.map((key) => {
    if (FORBIDDEN_SEGMENTS.has(key)) throw new Error(`Path segment "${key}" is not allowed`);
    return { key, index: INDEX.test(key) ? Number(key) : -1 };
  });
}

/**
 * Follows own properties and list indexes only; anything missing (or a step into a string,
 * number, boolean or null) gives null.
 */
export function lookupPath(value: unknown, path: readonly PathSegment[]): unknown {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    if (current === null || typeof current !== 'object') return null;
    const segment = path[i];
    if (Array.isArray(current)) {
      if (segment.index < 0 || segment.index >= current.length) return null;
      current = current[segment.index];
    } else if (hasOwn(current, segment.key)) {
      current = (current as Record<string, unknown>)[segment.key];
    } else {
      return null;
    }
  }
  return current === undefined ? null : current;
}
