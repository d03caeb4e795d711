import { z } from 'zod';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField, textOutput } from '../common/fields';
import { portFailure } from '../common/port-failure';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    prompt: kit.template(textSource('Prompt')),
    model: z.string().min(1).max(100).nullable().default(null).meta({ title: 'Model' }),
    temperature: z.number().min(0).max(1).nullable().default(null).meta({ title: 'Temperature' }),
    max_tokens: z.number().int().min(1).max(64000).nullable().default(null).meta({ title: 'Max tokens' }),
    ref: refField(),
  });
type GenerateTextConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const generateTextBlock = defineBlock<GenerateTextConfig>({
  type: 'generate_text',
  label: 'Generate Text',
  category: 'integrations',
  description: "Asks the project's text-generation model; skipped when no text-generation integration is configured.",
  config,
  flow: 'next',
  async: true,
  outputs: ({ ref }) => textOutput(ref),
  prepare: ({ prompt, model, temperature, max_tokens, ref }, context) => {
    const slot = context.variable(ref);
    const text = context.text(prompt);
    return async (run) => {
      const generator = run.ports.textGeneration;
      if (!generator) return run.skip('integration_not_configured');
      try {
        run.keep(slot, await generator.generate({ prompt: text(run), model, temperature, max_tokens }, run.signal));
      } catch (error) {
        throw portFailure(run, error, 'text generation');
      }
    };
  },
});
