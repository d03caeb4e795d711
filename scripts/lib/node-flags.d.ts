/** The Node flags each app is deployed with (scripts/lib/node-flags.js). */
export const NODE_FLAGS: Readonly<Record<string, readonly string[]>>;
export function nodeFlagsOf(app: string): string[];
