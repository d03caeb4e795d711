import { useEffect, useId, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router';
import { useFocusTrap } from './use-focus-trap';

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
export function LeaveDialog({ blocker, what }: { blocker: Blocker; what: string }) {
  return (
    <UnsavedQuestion title="Leave without saving?" stay="Stay" drop="Leave" onStay={() => blocker.reset?.()} onDrop={() => blocker.proceed?.()}>
      {`${what} has unsaved changes. They are lost if you leave now.`}
    </UnsavedQuestion>
  );
}

/** An `alertdialog` before unsaved edits are dropped; focus starts on the choice that keeps them. */
export function UnsavedQuestion(props: { title: string; stay: string; drop: string; onStay(): void; onDrop(): void; children: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useFocusTrap(ref, props.onStay, '[data-cancel]');
  return (
    <div className="backdrop">
      <div ref={ref} className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{props.title}</h2>
        <p>{props.children}</p>
        <div className="dialog-actions">
          <button type="button" className="button secondary" data-cancel onClick={props.onStay}>
            {props.stay}
          </button>
          <button type="button" className="button danger" onClick={props.onDrop}>
            {props.drop}
          </button>
        </div>
      </div>
    </div>
  );
}
