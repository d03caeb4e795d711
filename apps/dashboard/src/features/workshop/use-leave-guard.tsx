import { useEffect, useId, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router';
import { useFocusTrap } from '../../ui/use-focus-trap';

/** Blocks leaving with unsaved changes: another page of the app, another endpoint, or the tab. */
export function useLeaveGuard(dirty: boolean): Blocker {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return blocker;
}

/** The question asked when a blocked navigation waits: leave (losing the changes) or stay. */
export function LeaveDialog({ blocker }: { blocker: Blocker }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const stay = () => blocker.reset?.();
  useFocusTrap(ref, stay, '[data-cancel]');
  return (
    <div className="backdrop">
      <div ref={ref} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>Leave without saving?</h2>
        <p>This endpoint has unsaved changes. They are lost if you leave now.</p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" data-cancel onClick={stay}>
            Stay
          </button>
          <button type="button" className="button danger" onClick={() => blocker.proceed?.()}>
            Leave
          </button>
        </div>
      </div>
    </div>
  );
}
