/**
 * The Host header from the raw list, so that `req.headers` is only built when something needs
 * it. undefined when there is none, null when there are several: RFC 9112 §3.2 asks for a 400
 * then (node:http keeps the first, so "Host: b" after "Host: a" would otherwise reach project a).
 * The whole list is scanned; names are compared by length first, so a header costs one check.
 */
export function hostHeaderOf(rawHeaders: string[]): string | undefined | null {
  let host: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) {
      if (host !== undefined) return null;
      host = rawHeaders[i + 1];
    }
  }
  return host;
}
