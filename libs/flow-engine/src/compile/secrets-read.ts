import { referencesOf } from '../template/template-parser';
import { templateFields } from './template-fields';

/**
 * The secret names a compiled flow reads (`{secrets.NAME}` anywhere in its blocks), sorted: what
 * the control plane shows as a secret's `used_by` and refuses to delete while a live flow reads it.
 */
export function secretsReadBy(compiled: unknown): string[] {
  const blocks = (compiled as { blocks?: unknown } | null)?.blocks;
  if (!Array.isArray(blocks)) return [];
  const names = new Set<string>();
  for (const block of blocks as Array<{ config?: unknown }>) {
    for (const { ast } of templateFields(block?.config)) {
      for (const ref of referencesOf(ast)) if (ref.source === 'secret' && ref.name !== undefined) names.add(ref.name);
    }
  }
  return [...names].sort();
}
