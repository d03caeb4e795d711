/**
 * The noisy-neighbour drill's loop lane: the most expensive loop a project can deploy. Three
 * For Each nested (the deepest allowed), each running 10 iterations at once (the most), over a
 * list of 22 (22³ = 10,648 iterations: more than FLOW_MAX_ITERATIONS), each innermost
 * iteration changing the case of a 256 Ki-character text and collecting it. Whatever strikes
 * first — the CPU budget, the run's memory budget, the iteration limit — the answer must be a
 * clear 4xx/5xx error and the quiet project must keep its goals: a loop is never a way around
 * a limit of the run.
 */
import type { PublishedRoute } from '@flowgate/contracts';
import { publishedRoute } from '@flowgate/testing';
import type { NoiseLane } from './noise';

const position = { x: 0, y: 0 };
const loop = (id: string, list: string, item: string, collect: string) => ({
  id,
  type: 'for_each',
  position,
  config: { list, item, collect, concurrency: 10, ref: `${id}_out` },
});

export const LOOP_ROUTE: PublishedRoute = publishedRoute({
  path: '/loop',
  method: 'POST',
  blocks: [],
  flow: {
    nodes: [
      { id: 'start', type: 'start', position },
      loop('outer', '{body.list}', 'a', '{local.middle_out}'),
      loop('middle', '{body.list}', 'b', '{local.inner_out}'),
      loop('inner', '{body.list}', 'c', '{result.text}'),
      { id: 'work', type: 'manipulate_text', position, config: { input: '{body.s}', operation: 'uppercase', ref: 'text' } },
      { id: 'answer', type: 'respond', position, config: { body: { done: true } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'outer' },
      { id: 'e2', source: 'outer', target: 'middle', sourceHandle: 'each' },
      { id: 'e3', source: 'middle', target: 'inner', sourceHandle: 'each' },
      { id: 'e4', source: 'inner', target: 'work', sourceHandle: 'each' },
      { id: 'e5', source: 'outer', target: 'answer', sourceHandle: 'done' },
    ],
  },
});

export const loopLane = (): NoiseLane => ({
  name: 'loop',
  path: '/loop',
  body: JSON.stringify({ list: Array.from({ length: 22 }, (_, i) => i), s: 'ab'.repeat(128 * 1024) }),
  connections: 4,
});
