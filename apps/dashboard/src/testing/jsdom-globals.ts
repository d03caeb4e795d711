// jsdom lacks what React Router's data router reads (TextEncoder, Request); Node has
// TextEncoder, and the router only reads a request's url, method, headers and signal.
import { TextDecoder, TextEncoder } from 'node:util';

class MinimalRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers | Map<string, string>;
  readonly signal: AbortSignal;
  constructor(input: string | URL | MinimalRequest, init: { method?: string; signal?: AbortSignal | null } = {}) {
    this.url = input instanceof MinimalRequest ? input.url : String(input);
    this.method = init.method ?? 'GET';
    this.headers = typeof Headers === 'function' ? new Headers() : new Map();
    this.signal = init.signal ?? new AbortController().signal;
  }
}

Object.assign(globalThis, { TextEncoder, TextDecoder });
if (typeof globalThis.Request === 'undefined') Object.assign(globalThis, { Request: MinimalRequest });

// CodeMirror measures text through Range rectangles after an edit; jsdom lays nothing out.
if (typeof Range !== 'undefined' && typeof Range.prototype.getClientRects !== 'function') {
  const empty = { x: 0, y: 0, width: 0, height: 0, top: 0, right: 0, bottom: 0, left: 0, toJSON: () => ({}) };
  Object.assign(Range.prototype, { getClientRects: () => Object.assign([], { item: () => null }), getBoundingClientRect: () => empty });
}
