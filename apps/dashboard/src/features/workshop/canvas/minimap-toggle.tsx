import { MiniMap, Panel } from '@xyflow/react';
import { useState } from 'react';

const STORAGE_KEY = 'flowgate.workshop.minimap';

const stored = (): boolean => {
  try {
    return localStorage.getItem(STORAGE_KEY) !== 'hidden';
  } catch {
    return true;
  }
};

/** The minimap and the button that hides it (the choice is remembered in this browser). */
export function MinimapWithToggle() {
  const [shown, setShown] = useState(stored);
  const toggle = () => {
    setShown(!shown);
    try {
      localStorage.setItem(STORAGE_KEY, shown ? 'hidden' : 'shown');
    } catch {
      // Private windows may refuse storage: the choice then lasts for this page.
    }
  };
  return (
    <>
      {shown && <MiniMap pannable zoomable ariaLabel="Minimap" className="ws-minimap" style={{ width: 150, height: 100 }} />}
      <Panel position="bottom-right" className="ws-minimap-toggle">
        <button type="button" className="ws-button" onClick={toggle}>
          {shown ? 'Hide minimap' : 'Show minimap'}
        </button>
      </Panel>
    </>
  );
}
