import type { z } from 'zod';
import { blockCanFail, type BlockCategory, type BlockFlow } from './block-definition';
import { blockRegistry } from './registry';

export interface BlockCatalogueEntry {
  type: string;
  label: string;
  category: BlockCategory;
  description: string;
  /** The config as the editor stores it; field titles are in `.meta({ title })`. */
  configSchema: z.ZodObject;
  /** Outgoing handles: `next` (one), `branch` (`true` / `false`), `loop` (`each` / `done`) or `end` (none). */
  flow: BlockFlow;
  /** The kinds of flow the block may be used in (Return: functions; Respond: endpoints); absent: every kind. */
  usableIn?: ReadonlyArray<'endpoint' | 'function' | 'schedule'>;
  /** Whether a block with this config may have the `error` handle (it can fail on its own). */
  canFail(config: Record<string, unknown>): boolean;
}

/** The editor's action pool; browser-safe (no node-only imports anywhere in the engine). */
export const blockCatalogue: BlockCatalogueEntry[] = [...blockRegistry.values()].map(({ definition, sourceSchema }) => ({
  type: definition.type,
  label: definition.label,
  category: definition.category,
  description: definition.description,
  configSchema: sourceSchema,
  flow: definition.flow,
  ...(definition.usableIn === undefined ? {} : { usableIn: definition.usableIn }),
  canFail: (config) => blockCanFail(definition, config),
}));
