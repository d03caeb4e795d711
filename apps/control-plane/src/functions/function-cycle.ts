/**
 * The first chain of calls that leads from `start` back to it, as ids (`[a, b, a]`), or null.
 * `callsOf` gives the functions each function calls (the live versions, with the one being
 * deployed replaced by what goes live).
 */
export function findCallCycle(start: string, callsOf: (id: string) => readonly string[]): string[] | null {
  const path: string[] = [start];
  const visited = new Set<string>();
  const walk = (id: string): string[] | null => {
    for (const next of callsOf(id)) {
      if (next === start) return [...path, start];
      if (visited.has(next)) continue;
      visited.add(next);
      path.push(next);
      const found = walk(next);
      if (found) return found;
      path.pop();
    }
    return null;
  };
  return walk(start);
}
