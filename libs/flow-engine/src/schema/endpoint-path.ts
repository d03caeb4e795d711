/**
 * Why an endpoint path cannot be deployed as written, or null. Browsers, curl and HTTP client
 * libraries normalise a URL before sending it (WHATWG URL / RFC 3986 §5.2.4): `.` and `..`
 * segments are resolved, `\` becomes `/`, `%2e` is a dot. A path that such a client changes
 * would be live yet unreachable (or reach another endpoint), so it is refused with the reason.
 * Runs on the trimmed path with trailing slashes removed.
 */
export function endpointPathProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must start with /';
  if (path.includes('\\')) return 'must not contain backslashes (clients turn them into /, so the URL could never be called as written)';
  if (path.includes('%')) return 'must not contain percent-encoding such as %2e or %2f (clients decode it); write the characters themselves';
  if (path.includes('//')) return 'must not contain empty segments (//)';
  if (path.split('/').some((segment) => segment === '.' || segment === '..'))
    return 'must not contain . or .. segments (clients resolve them away, so the URL could never be called as written)';
  if (!PATH_PATTERN.test(path)) return 'must contain only letters, digits and . _ ~ - between slashes';
  if (RESERVED_FIRST_SEGMENT.test(path)) return 'may not begin with the reserved segments api, admin or _';
  return null;
}

/** First path segments the gateway keeps for itself (`/api/x` aliases `/x`; `/admin/…`; `/_healthz`). */
const RESERVED_FIRST_SEGMENT = /^\/(?:api|admin|_[^/]*)(?:\/|$)/i;
const PATH_PATTERN = /^\/(?:[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*)?$/;
