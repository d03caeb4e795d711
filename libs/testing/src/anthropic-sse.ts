import type http from 'node:http';

/**
 * A stand-in's streamed Messages API answer, written as Anthropic writes it (`event:` and
 * `data:` per event): `start` sends message_start, content_block_start, a ping and the first
 * text delta; `finish` the other deltas, content_block_stop, message_delta (with the usage)
 * and message_stop, then ends the answer. A test calls `finish` when it chooses (or never).
 */
export function anthropicStreamWriter(res: http.ServerResponse, model: string, usage = { input_tokens: 7, output_tokens: 4 }) {
  const send = (type: string, data: Record<string, unknown>): void => void res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  return {
    start(firstText: string): void {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      send('message_start', {
        message: { id: 'msg_standin', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
      });
      send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      send('ping', {});
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: firstText } });
    },
    finish(texts: string[]): void {
      for (const text of texts) send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
      send('content_block_stop', { index: 0 });
      send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
      send('message_stop', {});
      res.end();
    },
    /** Anthropic's mid-stream error event (e.g. overloaded_error), then the end. */
    fail(type: string, message: string): void {
      send('error', { error: { type, message } });
      res.end();
    },
  };
}
