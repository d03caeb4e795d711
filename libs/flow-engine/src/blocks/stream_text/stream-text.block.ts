import { z } from 'zod';
import { BlockFailure } from '../../runtime/run-errors';
import { IntegrationError, type TextStream } from '../../ports';
import { defineBlock, type ConfigKit, type KitMode } from '../block-definition';
import { portFailure } from '../common/port-failure';
import { textGenerationFields } from '../common/text-generation-fields';

const config = <M extends KitMode>(kit: ConfigKit<M>) => z.object(textGenerationFields(kit));
type StreamTextConfig = z.output<ReturnType<typeof config<'compiled'>>>;

const MISSING = "needs the project's text-generation integration (Settings → Integrations)";

/**
 * Ends the flow with the model's answer as it is written. The flow's deadline bounds the start
 * (until the provider accepted the call); the stream itself is read by whoever runs the flow
 * (the gateway sends it as Server-Sent Events). Unlike Generate Text it is never skipped: a
 * stream has no sensible empty answer, so a project without the integration cannot deploy it.
 */
export const streamTextBlock = defineBlock<StreamTextConfig>({
  type: 'stream_text',
  label: 'Stream Text',
  category: 'integrations',
  description: "Ends the flow by streaming the model's text to the caller as it is written (Server-Sent Events).",
  config,
  flow: 'end',
  async: true,
  check: (_config, diagnostics, { context }) => {
    if (context.text_generation === false) diagnostics.error('integration_missing', null, `${MISSING}.`);
  },
  prepare: ({ prompt, model, temperature, max_tokens }, context) => {
    const text = context.text(prompt);
    const nodeId = context.nodeId;
    const where = `${context.label} (${nodeId})`;
    return async (run) => {
      const generator = run.ports.textGeneration;
      if (generator?.stream === undefined) throw new BlockFailure(MISSING);
      try {
        const stream = await generator.stream({ prompt: text(run), model, temperature, max_tokens }, run.signal);
        run.result = { type: 'stream', status: 200, stream: failuresNamed(stream, where), node_id: nodeId };
      } catch (error) {
        throw portFailure(run, error, 'text generation');
      }
    };
  },
});

/** The stream, whose failure mid-answer names the block as a flow error's message does. */
function failuresNamed(stream: TextStream, where: string): TextStream {
  return {
    cancel: () => stream.cancel(),
    async *[Symbol.asyncIterator]() {
      try {
        yield* stream;
      } catch (error) {
        if (error instanceof IntegrationError) throw new BlockFailure(`${where}: ${error.provider}: ${error.message}`);
        throw new BlockFailure(`${where}: text generation failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
