import { useCallback, useState } from 'react';

export type CopyOutcome = 'copied' | 'failed';

/** What the user is told after a copy (announced in a `status` region). */
export const COPY_MESSAGES: Record<CopyOutcome, string> = {
  copied: 'Copied',
  failed: 'Copying failed: select the text and copy it yourself',
};

/** Copies text to the clipboard; the last outcome, for the page to show, and each outcome as it happens. */
export function useCopy(): { outcome: CopyOutcome | null; copy(text: string): Promise<CopyOutcome> } {
  const [outcome, setOutcome] = useState<CopyOutcome | null>(null);
  const copy = useCallback(async (text: string): Promise<CopyOutcome> => {
    const result = await navigator.clipboard.writeText(text).then(
      () => 'copied' as const,
      () => 'failed' as const,
    );
    setOutcome(result);
    return result;
  }, []);
  return { outcome, copy };
}
