/**
 * The deepest nesting of arrays and objects Flowgate accepts in any JSON it reads from a
 * caller (gateway request bodies, control-plane bodies, flow configs). V8's JSON.parse copes
 * with any depth, but what comes after it — JSON.stringify, structuredClone, every recursive
 * walk of a value — overflows the stack near a few thousand levels and turns a bad body into
 * a 500. 128 is serde_json's default recursion limit; real payloads stay far below it.
 */
export const MAX_JSON_DEPTH = 128;

export const JSON_TOO_DEEP_MESSAGE = `The JSON nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * True when `text` opens more than `maxDepth` arrays/objects at once. Meant to run before
 * JSON.parse, so it only counts brackets outside strings and does not validate: malformed
 * text is left for JSON.parse to refuse. One pass; strings are skipped with indexOf (native
 * search), and a text shorter than the limit cannot exceed it, so small bodies cost nothing.
 */
export function jsonTooDeep(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const length = text.length;
  if (length <= maxDepth) return false;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      index = closingQuote(text, index);
      if (index === -1) return false;
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
