import { useMemo, useState, type KeyboardEvent, type RefObject } from 'react';
import { useWorkshop } from '../store/workshop-context';
import { BLOCK_DRAG_TYPE, poolGroups } from './pool-groups';

/**
 * The blocks of the catalogue, searchable. Drag one onto the canvas, or with a block selected
 * press Enter or double-click to add it after that block.
 */
export function ActionPool({ searchRef }: { searchRef: RefObject<HTMLInputElement | null> }) {
  const [search, setSearch] = useState('');
  const kind = useWorkshop((state) => state.doc.settings.kind);
  const groups = useMemo(() => poolGroups(search, kind), [search, kind]);
  const selected = useWorkshop((state) => state.selectedNodeIds);
  const addBlock = useWorkshop((state) => state.addBlock);
  const after = selected.length === 1 ? selected[0] : null;

  const add = (type: string) => addBlock(type, after ? { after } : {});
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, type: string) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add(type);
  };

  return (
    <aside className="ws-pool" aria-label="Action pool">
      <input
        ref={searchRef}
        type="search"
        className="ws-search"
        aria-label="Search blocks"
        placeholder="Search blocks  ( / )"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <p className="ws-muted ws-hint">
        {after
          ? 'Double-click a block here (or press Enter on it) to add it after the selected one.'
          : 'Drag a block onto the canvas. To add one after a block, select that block, then double-click here (or press Enter).'}
      </p>
      {groups.length === 0 && <p className="ws-muted">No block matches “{search}”.</p>}
      {groups.map((group) => (
        <section key={group.category} className="ws-pool-group" aria-label={group.title}>
          <h3>{group.title}</h3>
          <ul>
            {group.blocks.map((entry) => (
              <li key={entry.type}>
                <button
                  type="button"
                  className={`ws-pool-item ws-cat-${entry.category}`}
                  draggable
                  aria-label={entry.label}
                  aria-describedby={`ws-pool-${entry.type}`}
                  onDragStart={(event) => {
                    event.dataTransfer.setData(BLOCK_DRAG_TYPE, entry.type);
                    event.dataTransfer.effectAllowed = 'copy';
                  }}
                  onDoubleClick={() => add(entry.type)}
                  onKeyDown={(event) => onKeyDown(event, entry.type)}
                  onClick={(event) => event.detail === 0 && add(entry.type)}
                >
                  <span className="ws-pool-label">{entry.label}</span>
                  <span className="ws-pool-description" id={`ws-pool-${entry.type}`}>
                    {entry.description}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </aside>
  );
}
