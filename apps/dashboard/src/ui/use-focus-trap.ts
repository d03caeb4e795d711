import { type RefObject, useEffect, useEffectEvent } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * While mounted: focus moves into `ref` (the `initial` selector, else the first control), Tab
 * cycles inside it, Escape calls `onEscape`, and focus returns where it was on unmount (or to
 * the page's content when that control is gone).
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape: () => void, initial?: string) {
  // Read when the trap opens and when Escape is pressed, so a new `onEscape` each render does not re-open it.
  const opening = useEffectEvent(() => ({ container: ref.current, initial }));
  const escape = useEffectEvent(() => onEscape());
  useEffect(() => {
    const { container, initial } = opening();
    if (!container) return;
    const previous = document.activeElement as HTMLElement | null;
    const first = (initial && container.querySelector<HTMLElement>(initial)) || container.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? container).focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        escape();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const last = items[items.length - 1]!;
      if (event.shiftKey && document.activeElement === items[0]) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        items[0]!.focus();
      }
    };
    container.addEventListener('keydown', onKey);
    return () => {
      container.removeEventListener('keydown', onKey);
      // Back to the control that opened it; when that is gone or disabled (its row deleted), to
      // the page's content, never to <body> (where the next Tab starts over from the header).
      previous?.focus?.();
      if (document.activeElement === previous && previous !== document.body) return;
      (document.getElementById('content') ?? document.getElementById('main'))?.focus();
    };
    // Only on open/close: re-running on every render would steal focus from the user.
  }, []);
}
