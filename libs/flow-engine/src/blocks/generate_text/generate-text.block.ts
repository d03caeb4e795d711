import { z } from 'zod';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { refField, textOutput } from '../common/fields';
import { portFailure } from '../common/port-failure';
import { textGenerationFields } from '../common/text-generation-fields';
import { judgePortCall, retryField, withRetries } from '../common/retry';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    ...textGenerationFields(kit),
    ref: refField(),
    retry: retryField(),
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
  canFail: true,
  outputs: ({ ref }) => textOutput(ref),
  prepare: ({ prompt, model, temperature, max_tokens, ref, retry }, context) => {
    const slot = context.variable(ref);
    const text = context.text(prompt);
    const traced = { id: context.nodeId, type: 'generate_text', label: context.label };
    return async (run) => {
      const generator = run.ports.textGeneration;
      if (!generator) return run.skip('integration_not_configured');
      const request = { prompt: text(run), model, temperature, max_tokens };
      try {
        run.keep(slot, await withRetries(run, retry, traced, () => generator.generate(request, run.signal), judgePortCall));
      } catch (error) {
        throw portFailure(run, error, 'text generation');
      }
    };
  },
});
