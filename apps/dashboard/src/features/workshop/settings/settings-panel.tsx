import { useEffect, useRef } from 'react';
import { START_TYPE } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';
import { EndpointSettingsForm } from './endpoint-settings-form';
import { FunctionSettingsForm } from './function-settings-form';
import { ScheduleSettingsForm } from './schedule-settings-form';
import { BlockForm } from './block-form';

const FOCUSABLE = 'input, select, textarea, [contenteditable="true"]';

/** The start block's form: what the flow belongs to. */
function BaseSettingsForm() {
  const kind = useWorkshop((state) => state.doc.settings.kind);
  if (kind === 'function') return <FunctionSettingsForm />;
  if (kind === 'schedule') return <ScheduleSettingsForm />;
  return <EndpointSettingsForm />;
}

/** The selected block's settings; focuses the field a clicked problem names. */
export function SettingsPanel() {
  const panel = useRef<HTMLElement>(null);
  const selectedIds = useWorkshop((state) => state.selectedNodeIds);
  const node = useWorkshop((state) => (state.selectedNodeIds.length === 1 ? state.doc.nodes.find((candidate) => candidate.id === state.selectedNodeIds[0]) : undefined));
  const focusRequest = useWorkshop((state) => state.focusRequest);

  useEffect(() => {
    if (!focusRequest || !panel.current) return;
    // Wait a frame: the panel may just have switched to the block the problem names.
    const frame = requestAnimationFrame(() => {
      const root = panel.current;
      if (!root) return;
      const field = focusRequest.field ?? '';
      const segments = field.split('.');
      for (let length = segments.length; length > 0; length--) {
        const holder = root.querySelector(`[data-field-key="${CSS.escape(segments.slice(0, length).join('.'))}"]`);
        const target = holder?.querySelector<HTMLElement>(FOCUSABLE);
        if (target) return target.focus();
      }
      root.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusRequest]);

  return (
    <aside className="ws-settings" aria-label="Block settings" ref={panel}>
      {!node ? (
        <p className="ws-muted ws-empty">{selectedIds.length > 1 ? `${selectedIds.length} blocks selected.` : 'Select a block to edit its settings.'}</p>
      ) : node.type === START_TYPE ? (
        <BaseSettingsForm />
      ) : (
        <BlockForm key={node.id} node={node} />
      )}
    </aside>
  );
}
