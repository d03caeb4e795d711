/**
 * The noisy-neighbour drill's Run Code lanes: code written to hold a gateway — an endless loop,
 * an allocation bomb and a catastrophic regular expression inside the sandbox, each with the
 * largest timeout a block may have. Each must be stopped (504 `code_timeout`, 422
 * `code_memory_exceeded`) off the gateway's event loop, with the gateway alive and its memory
 * bounded (the sandbox's module memory is capped: CODE_MEMORY_MB + 16 MiB per thread).
 */
import { type Block, publishedRoute, respond } from '@flowgate/testing';
import type { NoiseLane } from './noise';

const runCode = (code: string): Block => ({ type: 'run_code', config: { code, ref: 'out', timeout_ms: 1000 } });

export const CODE_ROUTES = [
  publishedRoute({ path: '/code-spin', method: 'POST', blocks: [runCode('while (true) {}'), respond({ out: '{result.out}' })] }),
  publishedRoute({ path: '/code-bomb', method: 'POST', blocks: [runCode('const all = [];\nfor (;;) all.push("x".repeat(100000) + all.length)'), respond({ out: '{result.out}' })] }),
  publishedRoute({ path: '/code-regex', method: 'POST', blocks: [runCode('return /(a+)+$/.test("a".repeat(64) + "b")'), respond({ out: '{result.out}' })] }),
];

export const CODE_LANES: NoiseLane[] = [
  { name: 'code-spin', path: '/code-spin', body: '{}', connections: 2 },
  { name: 'code-bomb', path: '/code-bomb', body: '{}', connections: 2 },
  { name: 'code-regex', path: '/code-regex', body: '{}', connections: 2 },
];
