import { z } from 'zod';
import { textSource, type ConfigKit, type KitMode } from '../block-definition';

/** What the model is asked and how: the fields Generate Text and Stream Text share. */
export const textGenerationFields = <M extends KitMode>(kit: ConfigKit<M>) => ({
  prompt: kit.template(textSource('Prompt')),
  model: z.string().min(1).max(100).nullable().default(null).meta({ title: 'Model' }),
  temperature: z.number().min(0).max(1).nullable().default(null).meta({ title: 'Temperature' }),
  max_tokens: z.number().int().min(1).max(64000).nullable().default(null).meta({ title: 'Max tokens' }),
});
