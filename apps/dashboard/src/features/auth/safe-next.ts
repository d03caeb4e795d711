/** Where to go after signing in: `?next=` when it is a path of this app (never another site), else /projects. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/projects';
  if (next.startsWith('/login') || next.startsWith('/signup')) return '/projects';
  return next;
}
