import ElkApi from 'elkjs/lib/elk-api.js';
import workerUrl from 'elkjs/lib/elk-worker.min.js?url';
import type { Layouter } from './tidy-up';

let layouter: Layouter | null = null;

/** ELK runs in a web worker, so laying out 200 blocks never freezes the page. */
export function elkLayouter(): Layouter {
  layouter ??= new ElkApi({ workerUrl });
  return layouter;
}
