import type { FlowResult, TextStreamEvent } from '@flowgate/flow-engine';
import type { OutgoingHttpHeaders } from 'node:http';
import { addRateLimitHeaders, type GatewayResponse } from './gateway-response';

type StreamResult = Extract<FlowResult, { type: 'stream' }>;

/** `x-accel-buffering: no` keeps nginx (a common ingress) from holding the events back. */
const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } as const;

/** One Server-Sent Event; JSON never holds a raw newline, so `data` is one line. */
const eventText = (event: TextStreamEvent): string =>
  event.type === 'text' ? `data: ${JSON.stringify({ text: event.text })}\n\n` : `event: done\ndata: ${JSON.stringify({ usage: event.usage })}\n\n`;

/**
 * Stream Text's answer: the headers at once, then each event as the model writes it, then the
 * end. A caller that goes away cancels the upstream call (its `close`); the log event is
 * written on that `close` too, so its duration runs to the last byte. A failure mid-answer
 * cannot change the status any more: it is sent as `event: error` and logged with its code.
 * Never rejects. The text is bounded by the block's max_tokens, so writes are not paced.
 */
export async function answerStream(res: GatewayResponse, result: StreamResult): Promise<void> {
  const { stream } = result;
  if (res.destroyed || res.headersSent) return stream.cancel();
  const headers: OutgoingHttpHeaders = { ...STREAM_HEADERS };
  addRateLimitHeaders(res, headers);
  res.streamed = true;
  res.writeHead(200, headers);
  res.responseBytes = 0;
  if (res.req.method === 'HEAD') {
    stream.cancel();
    return void res.end();
  }
  res.flushHeaders();
  const cancel = (): void => stream.cancel();
  res.once('close', cancel);
  try {
    for await (const event of stream) {
      if (res.destroyed) break;
      const text = eventText(event);
      res.responseBytes += Buffer.byteLength(text);
      res.write(text);
    }
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const message = res.masker === null ? text : res.masker.text(text);
    res.errorCode = 'flow_error';
    res.errorMessage = message;
    res.errorNodeId = result.node_id;
    const errorEvent = `event: error\ndata: ${JSON.stringify({ code: 'flow_error', message })}\n\n`;
    res.responseBytes += Buffer.byteLength(errorEvent);
    if (!res.destroyed) res.write(errorEvent);
  } finally {
    res.off('close', cancel);
    if (!res.destroyed) res.end();
  }
}
