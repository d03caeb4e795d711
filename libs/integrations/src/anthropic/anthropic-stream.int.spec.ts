import { IntegrationError, type TextStream, type TextStreamEvent } from '@flowgate/flow-engine';
import { anthropicStreamWriter, type StandIn, startStandIn, waitFor } from '@flowgate/testing';
import { createAnthropicPort } from './anthropic-port';

const never = () => new AbortController().signal;

async function read(stream: TextStream): Promise<TextStreamEvent[]> {
  const events: TextStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("Anthropic's streamed answers against a stand-in with the real SDK", () => {
  let anthropic: StandIn;
  const closedEarly = new Set<string>();

  beforeAll(async () => {
    anthropic = await startStandIn((_req, res, raw) => {
      const body = JSON.parse(raw);
      const prompt: string = body.messages[0].content;
      res.on('close', () => {
        if (!res.writableEnded) closedEarly.add(prompt);
      });
      const writer = anthropicStreamWriter(res, body.model, { input_tokens: 12, output_tokens: 3 });
      writer.start('Hello');
      if (prompt === 'whole') writer.finish([',', ' world']);
      else if (prompt === 'cut') res.end(); // no message_stop
      else if (prompt === 'overloaded') writer.fail('overloaded_error', 'Overloaded');
      // 'silent' and 'cancel': nothing more
    });
  });

  afterAll(() => anthropic.close());

  const port = (timeoutMs?: number) => createAnthropicPort({ apiKey: 'sk-ant-test', baseURL: anthropic.url, defaultModel: 'claude-haiku-4-5', timeoutMs });
  const ask = (prompt: string, timeoutMs?: number) => port(timeoutMs).stream!({ prompt, model: null, temperature: null, max_tokens: 50 }, never());

  it('yields each text delta, then done with the input and output tokens, from a streaming request', async () => {
    expect(await read(await ask('whole'))).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ',' },
      { type: 'text', text: ' world' },
      { type: 'done', usage: { input_tokens: 12, output_tokens: 3 } },
    ]);
    expect(JSON.parse(anthropic.requests.at(-1)!.body)).toEqual({ model: 'claude-haiku-4-5', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'whole' }] });
  });

  it('fails an answer that ends without message_stop, and one that carries an error event', async () => {
    await expect(read(await ask('cut'))).rejects.toThrow(new IntegrationError('anthropic', 'the answer ended before it was complete'));
    await expect(read(await ask('overloaded'))).rejects.toThrow('Overloaded');
  });

  it('stops an answer that falls silent, and fails it', async () => {
    await expect(read(await ask('silent', 300))).rejects.toThrow('Anthropic sent nothing for 0.3 s; the answer was stopped');
    await waitFor(() => closedEarly.has('silent'), 'the stand-in to see the silent call closed');
  });

  it('cancel closes the call to Anthropic and ends the reading without an error', async () => {
    const stream = await ask('cancel');
    const events: TextStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      stream.cancel();
    }
    expect(events).toEqual([{ type: 'text', text: 'Hello' }]);
    await waitFor(() => closedEarly.has('cancel'), 'the stand-in to see the cancelled call closed');
  });
});
