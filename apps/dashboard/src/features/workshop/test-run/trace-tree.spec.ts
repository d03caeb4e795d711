import type { FlowEdge, FlowNode } from '@flowgate/flow-engine';
import { loopBodies } from '../model/loop-bodies';
import type { TraceEntry } from './test-run-types';
import { takenEdgesOf } from './trace-store';
import { traceTree } from './trace-tree';

const entry = (node_id: string, type: string, more: Partial<TraceEntry> = {}): TraceEntry => ({ node_id, type, label: node_id, status: 'ok', duration_ms: 0, ...more });
const position = { x: 0, y: 0 };
const node = (id: string, type: string): FlowNode => ({ id, type, position });
const edge = (source: string, target: string, sourceHandle?: string): FlowEdge => ({ id: `${source}>${target}`, source, target, ...(sourceHandle ? { sourceHandle } : {}) });

/** Start → For Each f (each: get → [error] note) → done: respond. */
const nodes = [node('start', 'start'), node('f', 'for_each'), node('get', 'http_request'), node('note', 'set_variable'), node('r', 'respond')];
const edges = [edge('start', 'f'), edge('f', 'get', 'each'), edge('get', 'note', 'error'), edge('f', 'r', 'done')];
const trace = [
  entry('f', 'for_each', { iterations_not_shown: 3 }),
  entry('get', 'http_request', { loop_id: 'f', iteration: 0 }),
  entry('get', 'http_request', { loop_id: 'f', iteration: 1, status: 'error', error_path: true }),
  entry('note', 'set_variable', { loop_id: 'f', iteration: 1 }),
  entry('r', 'respond'),
];

describe('the test panel’s trace of loops', () => {
  it('groups a body’s entries under their For Each, by iteration', () => {
    const tree = traceTree(trace);
    expect(tree.map((step) => step.entry.node_id)).toEqual(['f', 'r']);
    expect(tree[0]!.iterations.map(({ iteration, steps }) => [iteration, steps.map((step) => step.entry.node_id)])).toEqual([
      [0, ['get']],
      [1, ['get', 'note']],
    ]);
  });

  it('draws the path taken: into the body by each, the error handle, out by done', () => {
    expect([...takenEdgesOf(trace, { nodes, edges })].sort()).toEqual(['f>get', 'f>r', 'get>note', 'start>f']);
  });

  it('knows a loop body on the canvas, and a connection that leaves it', () => {
    const escaping = [...edges, edge('note', 'r')];
    const { depth, escapes } = loopBodies(nodes, escaping);
    expect([...depth.entries()].sort()).toEqual([
      ['get', 1],
      ['note', 1],
      ['r', 1],
    ]);
    expect([...escapes]).toEqual(['note>r']);
    expect(loopBodies(nodes, edges).escapes.size).toBe(0);
  });
});
