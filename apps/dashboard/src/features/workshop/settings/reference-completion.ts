import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { ReferenceSuggestion } from '@flowgate/flow-engine';

/**
 * Completes `{` + a reference: offers what the engine's reference scope allows at this block,
 * and closes the brace unless one follows already.
 */
export function referenceCompletion(suggestions: () => readonly ReferenceSuggestion[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(/\{[A-Za-z0-9_.-]*$/);
    if (!before) return null;
    const closed = context.state.sliceDoc(context.pos, context.pos + 1) === '}';
    return {
      from: before.from + 1,
      to: context.pos,
      validFor: /^[A-Za-z0-9_.-]*$/,
      options: suggestions().map(({ reference, detail }) => ({
        label: reference,
        displayLabel: `{${reference}}`,
        detail,
        type: 'variable',
        apply: closed ? reference : `${reference}}`,
      })),
    };
  };
}
