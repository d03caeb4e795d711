import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { QueueDefinition } from '../queue-definition';

function isQueueDefinition(value: unknown): value is QueueDefinition {
  const candidate = value as Partial<QueueDefinition> | undefined;
  return (
    typeof candidate?.name === 'string' &&
    Number.isInteger(candidate.attempts) &&
    (candidate.attempts ?? 0) >= 1 &&
    typeof candidate.backoffMs === 'number' &&
    typeof candidate.setup === 'function'
  );
}

/**
 * The queue registry: every folder here is one queue, and its `index.ts` exports `queue`
 * (a QueueDefinition). Adding a queue means adding a folder; nothing else changes.
 */
export function discoverQueues(directory: string = __dirname): QueueDefinition[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((folder) => {
      const exported = (require(join(directory, folder)) as { queue?: unknown }).queue;
      if (!isQueueDefinition(exported)) {
        throw new Error(`apps/worker/src/queues/${folder}/index.ts must export \`queue\`, a QueueDefinition (name, attempts ≥ 1, backoffMs, setup)`);
      }
      return exported;
    });
}
