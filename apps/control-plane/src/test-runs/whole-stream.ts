import type { FlowResult } from '@flowgate/flow-engine';

type StreamResult = Extract<FlowResult, { type: 'stream' }>;
/** What a test run reports: an answer or an error, never a stream. */
export type WholeResult = Exclude<FlowResult, { type: 'stream' }>;

/**
 * A test run shows Stream Text's answer whole: the stream is read to its end (within what is
 * left of the flow's deadline, then cancelled) and becomes a 200 whose body is the text joined
 * and the usage of the `done` event; a failure mid-answer becomes the flow error it names.
 */
export async function wholeStream(result: StreamResult, timeoutMs: number): Promise<WholeResult> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    result.stream.cancel();
  }, Math.max(0, timeoutMs));
  let text = '';
  let usage: unknown = null;
  try {
    for await (const event of result.stream) {
      if (event.type === 'text') text += event.text;
      else usage = event.usage;
    }
  } catch (error) {
    if (!timedOut) return { type: 'error', status: 500, code: 'flow_error', message: error instanceof Error ? error.message : String(error), node_id: result.node_id };
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) return { type: 'error', status: 504, code: 'flow_timeout', message: 'The flow did not finish before its deadline.', node_id: result.node_id };
  return { type: 'response', status: 200, body: { text, usage } };
}
