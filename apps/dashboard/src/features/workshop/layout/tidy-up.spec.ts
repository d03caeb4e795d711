import ELK from 'elkjs/lib/elk.bundled.js';
import type { FlowEdge, FlowNode } from '@flowgate/flow-engine';
import type { WorkshopDoc } from '../model/workshop-document';
import { DEFAULT_SIZE, tidyUp } from './tidy-up';

const settings = { kind: 'endpoint' as const, name: 'x', method: 'GET' as const, path: '/x', auth: 'none' as const, query_params: [] };
const at = { x: 0, y: 0 };

function overlaps(positions: Record<string, { x: number; y: number }>): string[] {
  const ids = Object.keys(positions);
  const found: string[] = [];
  for (const a of ids)
    for (const b of ids) {
      if (a >= b) continue;
      const [p, q] = [positions[a], positions[b]];
      if (Math.abs(p.x - q.x) < DEFAULT_SIZE.width && Math.abs(p.y - q.y) < DEFAULT_SIZE.height) found.push(`${a}/${b}`);
    }
  return found;
}

describe('Tidy up', () => {
  it('keeps a condition’s true branch above its false branch, with no overlapping blocks', async () => {
    // Everything piled at one spot, and the false branch listed first.
    const nodes: FlowNode[] = [
      { id: 'start', type: 'start', position: at },
      { id: 'c', type: 'condition', position: at, config: { left: '1', operator: 'eq', right: '1' } },
      { id: 'no', type: 'respond', position: at, config: { body: {} } },
      { id: 'yes', type: 'respond', position: at, config: { body: {} } },
    ];
    const edges: FlowEdge[] = [
      { id: 'e1', source: 'start', target: 'c' },
      { id: 'e2', source: 'c', target: 'no', sourceHandle: 'false' },
      { id: 'e3', source: 'c', target: 'yes', sourceHandle: 'true' },
    ];
    const positions = await tidyUp({ nodes, edges, settings }, new Map(), new ELK());
    expect(positions.yes.y).toBeLessThan(positions.no.y);
    expect(positions.c.x).toBeGreaterThan(positions.start.x);
    expect(overlaps(positions)).toEqual([]);
  });

  it('lays out 200 blocks without overlaps', async () => {
    const doc: WorkshopDoc = { nodes: [{ id: 'start', type: 'start', position: at }], edges: [], settings };
    for (let index = 1; index <= 200; index++) {
      doc.nodes.push({ id: `n${index}`, type: 'set_variable', position: at, config: { name: `v${index}`, value: 'x' } });
      // A few parallel chains, so there are layers and ranks both.
      doc.edges.push({ id: `e${index}`, source: index <= 4 ? 'start' : `n${index - 4}`, target: `n${index}` });
    }
    expect(overlaps(await tidyUp(doc, new Map(), new ELK()))).toEqual([]);
  });
});
