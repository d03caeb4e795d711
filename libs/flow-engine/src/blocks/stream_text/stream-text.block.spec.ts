import { IntegrationError, type TextGenerationPort, type TextStream, type TextStreamEvent } from '../../ports';
import type { FlowResult } from '../../runtime/flow-io';
import { codes, diagnostics, linearFlow, request, runFlow } from '../../testing/flow-fixtures';

const streamText = (config: Record<string, unknown> = {}) => ({
  id: 'talk',
  type: 'stream_text',
  config: { prompt: 'Tell {body.name} a story', model: 'claude-haiku', temperature: 0.5, max_tokens: 200, ...config } as never,
});

function scriptedStream(events: TextStreamEvent[]): TextStream {
  return {
    cancel: () => undefined,
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
  };
}

async function eventsOf(result: FlowResult): Promise<TextStreamEvent[]> {
  if (result.type !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(result)}`);
  const events: TextStreamEvent[] = [];
  for await (const event of result.stream) events.push(event);
  return events;
}

describe('Stream Text block', () => {
  it('ends the flow with the stream the port started, from the templated prompt and settings', async () => {
    const asked: unknown[] = [];
    const stream = scriptedStream([{ type: 'text', text: 'Once' }, { type: 'done', usage: { input_tokens: 5, output_tokens: 1 } }]);
    const textGeneration: TextGenerationPort = {
      generate: async () => 'unused',
      stream: async (prompt, signal) => {
        asked.push([prompt, signal instanceof AbortSignal]);
        return stream;
      },
    };
    const result = await runFlow(linearFlow([streamText()]), { ports: { textGeneration }, request: request({ body: { name: 'Ada' } }) });
    expect(result).toMatchObject({ type: 'stream', status: 200, node_id: 'talk' });
    expect(await eventsOf(result)).toEqual([{ type: 'text', text: 'Once' }, { type: 'done', usage: { input_tokens: 5, output_tokens: 1 } }]);
    expect(asked).toEqual([[{ prompt: 'Tell Ada a story', model: 'claude-haiku', temperature: 0.5, max_tokens: 200 }, true]]);
  });

  it('names the block when the provider fails mid-answer, and passes cancel on to the port', async () => {
    let cancelled = 0;
    const failing: TextStream = {
      cancel: () => void cancelled++,
      async *[Symbol.asyncIterator]() {
        yield { type: 'text', text: 'Once' } as const;
        throw new IntegrationError('anthropic', 'Overloaded');
      },
    };
    const textGeneration: TextGenerationPort = { generate: async () => 'unused', stream: async () => failing };
    const result = await runFlow(linearFlow([streamText()]), { ports: { textGeneration } });
    await expect(eventsOf(result)).rejects.toThrow('Stream Text (talk): anthropic: Overloaded');
    if (result.type === 'stream') result.stream.cancel();
    expect(cancelled).toBe(1);
  });

  it('fails with a flow error (never skipped) when the project has no text-generation integration', async () => {
    await expect(runFlow(linearFlow([streamText()]))).resolves.toEqual({
      type: 'error',
      status: 500,
      code: 'flow_error',
      message: "Stream Text (talk): needs the project's text-generation integration (Settings → Integrations)",
      node_id: 'talk',
    });
  });

  it("turns a provider refusal before the stream starts into a flow error carrying the provider's message", async () => {
    const textGeneration: TextGenerationPort = {
      generate: async () => 'unused',
      stream: async () => {
        throw new IntegrationError('anthropic', 'model: claude-nope (HTTP 404)');
      },
    };
    await expect(runFlow(linearFlow([streamText()]), { ports: { textGeneration } })).resolves.toMatchObject({
      type: 'error',
      code: 'flow_error',
      message: 'Stream Text (talk): anthropic: model: claude-nope (HTTP 404)',
    });
  });

  it('is a Deploy error (integration_missing) when the project is known to have no text-generation integration', () => {
    const flow = linearFlow([streamText()]);
    expect(diagnostics(flow, { context: { text_generation: false } })).toContainEqual(
      expect.objectContaining({ severity: 'error', code: 'integration_missing', node_id: 'talk' }),
    );
    expect(codes(diagnostics(flow, { context: { text_generation: true } }))).not.toContain('integration_missing');
    // The editor's live diagnostics do not know the integrations: no finding then.
    expect(codes(diagnostics(flow))).not.toContain('integration_missing');
  });

  it('ends the flow: a block after it is refused like one after Respond', () => {
    const found = diagnostics(linearFlow([streamText(), { id: 'after', type: 'respond', config: { body: {} } }]));
    expect(found.some((diagnostic) => diagnostic.severity === 'error' && diagnostic.node_id !== null)).toBe(true);
  });
});
