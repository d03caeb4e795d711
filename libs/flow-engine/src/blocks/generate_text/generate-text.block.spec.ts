import { IntegrationError, type TextGenerationPort } from '../../ports';
import { diagnostics, linearFlow, request, respondBody, respondingFlow, runFlow } from '../../testing/flow-fixtures';

const generate = (config: Record<string, unknown> = {}) => ({
  id: 'gen',
  type: 'generate_text',
  config: { prompt: 'Summarise: {body.text}', model: 'claude-haiku', temperature: 0.2, max_tokens: 100, ref: 'summary', ...config } as never,
});

describe('Generate Text block', () => {
  it('sends the templated prompt and settings to the port and stores the text', async () => {
    const asked: unknown[] = [];
    const textGeneration: TextGenerationPort = {
      generate: async (prompt, signal) => {
        asked.push([prompt, signal instanceof AbortSignal]);
        return 'Short.';
      },
    };
    await expect(respondBody(respondingFlow([generate()], { summary: '{result.summary}' }), { ports: { textGeneration }, request: request({ body: { text: 'Long text' } }) })).resolves.toEqual({
      summary: 'Short.',
    });
    expect(asked).toEqual([[{ prompt: 'Summarise: Long text', model: 'claude-haiku', temperature: 0.2, max_tokens: 100 }, true]]);
  });

  it('passes null for settings left out', async () => {
    const asked: unknown[] = [];
    const textGeneration: TextGenerationPort = { generate: async (prompt) => (asked.push(prompt), 'x') };
    await respondBody(respondingFlow([{ type: 'generate_text', config: { prompt: 'Hi', ref: 'r' } }], {}), { ports: { textGeneration } });
    expect(asked).toEqual([{ prompt: 'Hi', model: null, temperature: null, max_tokens: null }]);
  });

  it("is skipped when the project has no text-generation integration", async () => {
    await expect(respondBody(respondingFlow([generate()], { summary: '{result.summary}' }))).resolves.toEqual({ summary: null });
  });

  it("turns a provider refusal into a flow error carrying the provider's message", async () => {
    const textGeneration: TextGenerationPort = {
      generate: async () => {
        throw new IntegrationError('anthropic', 'invalid x-api-key');
      },
    };
    await expect(runFlow(respondingFlow([generate()], {}), { ports: { textGeneration } })).resolves.toEqual({
      type: 'error',
      status: 500,
      code: 'flow_error',
      message: 'Generate Text (gen): anthropic: invalid x-api-key',
      node_id: 'gen',
    });
  });

  it('refuses a temperature outside 0–1', () => {
    expect(diagnostics(linearFlow([generate({ temperature: 1.5 })]))).toContainEqual(expect.objectContaining({ field: 'temperature', code: 'invalid_field' }));
  });
});
