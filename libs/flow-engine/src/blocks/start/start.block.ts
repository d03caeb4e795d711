import { z } from 'zod';
import { defineBlock } from '../block-definition';

/** The entry point; compiled flows begin at the block it connects to, so it never executes. */
export const startBlock = defineBlock<Record<string, never>>({
  type: 'start',
  label: 'Start',
  category: 'trigger',
  description: 'Where every request enters the flow; connect it to the first block.',
  config: () => z.object({}),
  flow: 'next',
  prepare: () => () => undefined,
});
