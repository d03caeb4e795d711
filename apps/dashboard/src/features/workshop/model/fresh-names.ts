import type { FlowNode } from '@flowgate/flow-engine';
import { referenceNameField } from './block-fields';

/** The first `prefix<N>` not taken: n1, n2, … */
export function freshId(taken: ReadonlySet<string>, prefix = 'n'): string {
  for (let index = 1; ; index++) {
    const candidate = `${prefix}${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** `base` when free, else base2, base3, … (`loud2` pasted again becomes `loud3`, not `loud22`). */
export function freshReferenceName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  const stem = base.replace(/\d+$/, '') || 'value';
  for (let index = 2; ; index++) {
    const candidate = `${stem}${index}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The block's reference name (`ref`, or the name of Set Variable / Send External Request). */
export function referenceNameOf(node: FlowNode): string | null {
  const field = referenceNameField(node.type);
  const value = field ? node.config?.[field.key] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

export const referenceNames = (nodes: readonly FlowNode[]): Set<string> =>
  new Set(nodes.map(referenceNameOf).filter((name): name is string => name !== null));
