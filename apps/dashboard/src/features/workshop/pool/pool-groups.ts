import { blockCatalogue, type BlockCatalogueEntry, type BlockCategory, type FlowKind } from '@flowgate/flow-engine';

const CATEGORY_TITLES: Record<BlockCategory, string> = {
  trigger: 'Trigger',
  data: 'Data',
  text: 'Text',
  logic: 'Logic',
  tables: 'Tables',
  integrations: 'Integrations',
  output: 'Output',
};

export interface PoolGroup {
  category: BlockCategory;
  title: string;
  blocks: BlockCatalogueEntry[];
}

/**
 * The catalogue grouped by category, in catalogue order; Start is the base settings block, not in
 * the pool, and a block that the flow's kind refuses (Return in an endpoint, Respond in a function) is left out.
 */
export function poolGroups(search: string, kind: FlowKind = 'endpoint'): PoolGroup[] {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (entry: BlockCatalogueEntry) => {
    const text = `${entry.label} ${entry.description} ${entry.category}`.toLowerCase();
    return words.every((word) => text.includes(word));
  };
  const groups = new Map<BlockCategory, PoolGroup>();
  for (const entry of blockCatalogue) {
    if (entry.type === 'start' || !matches(entry) || (entry.usableIn !== undefined && !entry.usableIn.includes(kind))) continue;
    const group = groups.get(entry.category) ?? { category: entry.category, title: CATEGORY_TITLES[entry.category], blocks: [] };
    group.blocks.push(entry);
    groups.set(entry.category, group);
  }
  return [...groups.values()];
}

/** The drag payload type the canvas accepts from the pool. */
export const BLOCK_DRAG_TYPE = 'application/x-flowgate-block';
