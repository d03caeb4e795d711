import { IntegrationError } from '@flowgate/flow-engine';
import { sendJson, type StandIn, startStandIn } from '@flowgate/testing';
import { createAnthropicPort } from './anthropic-port';
import { CLAUDE_MODELS, DEFAULT_CLAUDE_MODEL } from './claude-models.constant';

const never = () => new AbortController().signal;

function messageBody(model: string, text: string) {
  return {
    id: 'msg_standin',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 3, output_tokens: 2 },
  };
}

describe('Anthropic text generation against a stand-in with the real SDK', () => {
  let anthropic: StandIn;
  let overloadedOnce = new Set<string>();

  beforeAll(async () => {
    anthropic = await startStandIn((req, res, raw) => {
      const body = JSON.parse(raw || '{}');
      const prompt: string = body.messages?.[0]?.content ?? '';
      if (req.url !== '/v1/messages') return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'no route' } });
      // The SDK sends the key as `Authorization: Bearer` (older versions: `x-api-key`).
      const key = req.headers['x-api-key'] ?? req.headers.authorization?.replace(/^Bearer /, '');
      if (key !== 'sk-ant-test') {
        return sendJson(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      }
      if (prompt === 'bad model') {
        return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `model: ${body.model}` } });
      }
      if (prompt.startsWith('flaky') && !overloadedOnce.has(prompt)) {
        overloadedOnce.add(prompt);
        return sendJson(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { 'retry-after-ms': '10' });
      }
      if (prompt === 'hang') return; // never answers
      return sendJson(res, 200, messageBody(body.model, `echo: ${prompt}`));
    });
  });

  afterAll(async () => {
    await anthropic.close();
  });

  beforeEach(() => {
    overloadedOnce = new Set();
  });

  const port = (overrides: Partial<Parameters<typeof createAnthropicPort>[0]> = {}) =>
    createAnthropicPort({ apiKey: 'sk-ant-test', baseURL: anthropic.url, defaultModel: null, ...overrides });

  it('sends the prompt, model, temperature and max_tokens and returns the text', async () => {
    const text = await port().generate({ prompt: 'hello', model: 'claude-haiku-4-5', temperature: 0.3, max_tokens: 50 }, never());
    expect(text).toBe('echo: hello');
    const sent = JSON.parse(anthropic.requests.at(-1)!.body);
    expect(sent).toEqual({ model: 'claude-haiku-4-5', max_tokens: 50, temperature: 0.3, messages: [{ role: 'user', content: 'hello' }] });
  });

  it('falls back to the integration default model, then to the built-in default, and max_tokens 1024', async () => {
    await port({ defaultModel: 'claude-opus-4-8' }).generate({ prompt: 'a', model: null, temperature: null, max_tokens: null }, never());
    expect(JSON.parse(anthropic.requests.at(-1)!.body)).toEqual({ model: 'claude-opus-4-8', max_tokens: 1024, messages: [{ role: 'user', content: 'a' }] });
    await port().generate({ prompt: 'b', model: ' ', temperature: null, max_tokens: null }, never());
    expect(JSON.parse(anthropic.requests.at(-1)!.body).model).toBe(DEFAULT_CLAUDE_MODEL);
    expect(CLAUDE_MODELS.map((model) => model.id)).toContain(DEFAULT_CLAUDE_MODEL);
  });

  it('turns a provider error into an IntegrationError carrying the provider message', async () => {
    const failing = port().generate({ prompt: 'bad model', model: 'claude-nope', temperature: null, max_tokens: null }, never());
    await expect(failing).rejects.toBeInstanceOf(IntegrationError);
    await expect(failing).rejects.toMatchObject({ provider: 'anthropic', message: 'model: claude-nope (HTTP 404)' });
    const wrongKey = createAnthropicPort({ apiKey: 'sk-wrong', baseURL: anthropic.url });
    await expect(wrongKey.generate({ prompt: 'x', model: null, temperature: null, max_tokens: null }, never())).rejects.toThrow(
      'invalid x-api-key (HTTP 401)',
    );
  });

  it('retries an overloaded provider once, then succeeds', async () => {
    const before = anthropic.requests.length;
    const text = await port().generate({ prompt: 'flaky 1', model: null, temperature: null, max_tokens: null }, never());
    expect(text).toBe('echo: flaky 1');
    expect(anthropic.requests.length - before).toBe(2);
  });

  it('does not retry when retries are off, and reports the provider message', async () => {
    const once = port({ maxRetries: 0 }).generate({ prompt: 'flaky 2', model: null, temperature: null, max_tokens: null }, never());
    await expect(once).rejects.toThrow('Overloaded (HTTP 529)');
  });

  it('gives up when the flow deadline aborts, and on its own timeout', async () => {
    const controller = new AbortController();
    const pending = port().generate({ prompt: 'hang', model: null, temperature: null, max_tokens: null }, controller.signal);
    const reason = new Error('flow deadline');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);

    const quick = port({ timeoutMs: 200, maxRetries: 0 }).generate({ prompt: 'hang', model: null, temperature: null, max_tokens: null }, never());
    await expect(quick).rejects.toThrow('Anthropic did not answer in time');
  });

  it('refuses temperatures outside 0–1 before calling the provider', async () => {
    const before = anthropic.requests.length;
    await expect(port().generate({ prompt: 'x', model: null, temperature: 1.5, max_tokens: null }, never())).rejects.toThrow('between 0 and 1');
    expect(anthropic.requests.length).toBe(before);
  });
});
