import type http from 'node:http';
import { sendJson, type StandIn, startStandIn } from './stand-in';

/** One scripted answer of the stand-in Messages API. */
export type ScriptedAnswer =
  /** A `tool_use` block calling the request's first tool with this input. */
  | { toolInput: unknown; usage?: { input_tokens: number; output_tokens: number } }
  /** A text answer without any tool call. */
  | { text: string }
  /** An API error as Anthropic sends it (e.g. 400 `invalid_request_error`). */
  | { status: number; errorType: string; message: string }
  /** No answer until the connection closes (a caller that cancels). */
  | { hold: true };

/** What the stand-in was sent, parsed. */
export interface MessagesRequest {
  model: string;
  system?: string;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>;
  tool_choice?: unknown;
}

export interface MessagesStandIn extends StandIn {
  /** The conversations whose first user message contains `marker` get `answers`: the n-th call of a conversation the n-th (the last one repeats). */
  script(marker: string, answers: ScriptedAnswer[]): void;
  /** The parsed requests of the conversations that contain `marker`, in order. */
  sent(marker: string): MessagesRequest[];
  /** How many held answers (`hold`) of conversations with `marker` the caller closed. */
  closed(marker: string): number;
}

const firstText = (request: MessagesRequest): string => {
  const content = request.messages[0]?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
};

/**
 * A stand-in of Anthropic's Messages API (non-streaming) on 127.0.0.1 for the real SDK: it
 * answers scripted `tool_use` blocks by the description in the conversation, and records every
 * request. Stateless: the round of a conversation is read from its number of messages.
 */
export async function startMessagesStandIn(): Promise<MessagesStandIn> {
  const scripts = new Map<string, ScriptedAnswer[]>();
  let served = 0;
  const closed: string[] = [];
  const answer = (res: http.ServerResponse, raw: string): void => {
    const request = JSON.parse(raw) as MessagesRequest;
    const prompt = firstText(request);
    const [marker, answers] = [...scripts.entries()].find(([key]) => prompt.includes(key)) ?? [];
    if (!marker || !answers) return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'no scripted answer for this conversation' } });
    const round = Math.floor((request.messages.length - 1) / 2);
    const scripted = answers[Math.min(round, answers.length - 1)]!;
    if ('hold' in scripted) return void res.on('close', () => closed.push(marker));
    if ('status' in scripted) return sendJson(res, scripted.status, { type: 'error', error: { type: scripted.errorType, message: scripted.message } });
    served += 1;
    const toolCall = 'toolInput' in scripted;
    sendJson(res, 200, {
      id: `msg_standin_${served}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: toolCall
        ? [{ type: 'tool_use', id: `toolu_standin_${served}`, name: request.tools?.[0]?.name ?? 'tool', input: scripted.toolInput }]
        : [{ type: 'text', text: scripted.text }],
      stop_reason: toolCall ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: (toolCall && scripted.usage) || { input_tokens: 1200, output_tokens: 300 },
    });
  };
  const standIn = await startStandIn((_req, res, raw) => answer(res, raw));
  return {
    ...standIn,
    script: (marker, answers) => void scripts.set(marker, answers),
    sent: (marker) =>
      standIn.requests
        .map((request) => JSON.parse(request.body) as MessagesRequest)
        .filter((request) => firstText(request).includes(marker)),
    closed: (marker) => closed.filter((key) => key === marker).length,
  };
}
