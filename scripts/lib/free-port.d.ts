/** A TCP port nothing listened on a moment ago (scripts/lib/free-port.js). */
export function freePort(): Promise<number>;
