import type { z } from 'zod';
import type { BlockCategory, BlockFlow } from './block-definition';
import { blockRegistry } from './registry';

export interface BlockCatalogueEntry {
  type: string;
  label: string;
  category: BlockCategory;
  description: string;
  /** The config as the editor stores it; field titles are in `.meta({ title })`. */
  configSchema: z.ZodObject;
  /** Outgoing handles: `next` (one), `branch` (`true` / `false`) or `end` (none). */
  flow: BlockFlow;
}

/** The editor's action pool; browser-safe (no node-only imports anywhere in the engine). */
export const blockCatalogue: BlockCatalogueEntry[] = [...blockRegistry.values()].map(({ definition, sourceSchema }) => ({
  type: definition.type,
  label: definition.label,
  category: definition.category,
  description: definition.description,
  configSchema: sourceSchema,
  flow: definition.flow,
}));
