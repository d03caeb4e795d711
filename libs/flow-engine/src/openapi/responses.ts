import type { CompiledFlow } from '../compile/compiled-flow';
import { blockRegistry } from '../blocks/registry';
import { errorCodeForStatus } from '../blocks/return_error/error-codes';
import type { TemplateAst } from '../template/template-ast';
import { loopBodies, type FlowTypes } from './flow-types';
import { oneOfSchemas, type JsonSchema } from './json-schema';

/** What may answer with one status: Respond bodies and/or error codes, with why. */
export interface StatusOutcome {
  bodies: JsonSchema[];
  errorCodes: Set<string>;
  reasons: string[];
  /** Headers beyond the RateLimit-* of keyed requests (Retry-After, WWW-Authenticate). */
  headers: string[];
  /** Stream Text answers with this status as Server-Sent Events (`text/event-stream`). */
  eventStream?: boolean;
}

export type Outcomes = Map<number, StatusOutcome>;

export function addOutcome(outcomes: Outcomes, status: number, outcome: Partial<Omit<StatusOutcome, 'errorCodes'>> & { errorCodes?: string[] }): void {
  let entry = outcomes.get(status);
  if (!entry) outcomes.set(status, (entry = { bodies: [], errorCodes: new Set(), reasons: [], headers: [] }));
  entry.bodies.push(...(outcome.bodies ?? []));
  if (outcome.eventStream === true) entry.eventStream = true;
  for (const code of outcome.errorCodes ?? []) entry.errorCodes.add(code);
  for (const reason of outcome.reasons ?? []) if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
  for (const header of outcome.headers ?? []) if (!entry.headers.includes(header)) entry.headers.push(header);
}

/**
 * The answers the flow itself gives: each Respond block's status with the schema of its body,
 * each Return Error's status with its code, and 200 `{}` where the flow can end without either.
 */
export function flowOutcomes(flow: CompiledFlow, types: FlowTypes, outcomes: Outcomes): void {
  let endsWithoutAnswer = flow.entry === null;
  // A body path that ends is an iteration that is over.
  const inBodies = new Set([...loopBodies(flow).values()].flatMap((body) => [...body]));
  flow.blocks.forEach((block, index) => {
    const config = block.config;
    switch (block.type) {
      case 'respond':
        addOutcome(outcomes, config.status as number, { bodies: [types.valueAt(config.body as TemplateAst, index)], reasons: ['Answer of the flow'] });
        return;
      case 'return_error': {
        const status = config.status as number;
        const message = config.message as TemplateAst;
        addOutcome(outcomes, status, {
          errorCodes: [(config.code as string | undefined) ?? errorCodeForStatus(status)],
          reasons: [message.kind === 'literal' && typeof message.value === 'string' ? message.value : 'Error returned by the flow'],
        });
        return;
      }
      case 'stream_text':
        addOutcome(outcomes, 200, { eventStream: true, reasons: ["The model's text as Server-Sent Events, as it is written"] });
        return;
    }
    const flowKind = blockRegistry.get(block.type)?.definition.flow;
    if (inBodies.has(index)) return;
    if (block.next === null || (flowKind === 'branch' && (block.next_when_false ?? null) === null)) endsWithoutAnswer = true;
  });
  if (endsWithoutAnswer) addOutcome(outcomes, 200, { bodies: [{ type: 'object', maxProperties: 0 }], reasons: ['The flow ends without a Respond block: an empty object'] });
}

/** The error body every Flowgate error has, with the codes this status can carry. */
export function errorSchema(codes: Iterable<string>): JsonSchema {
  const list = [...codes].sort();
  return {
    type: 'object',
    properties: {
      success: { type: 'boolean', const: false },
      code: list.length === 1 ? { type: 'string', const: list[0]! } : { type: 'string', enum: list },
      message: { type: 'string' },
    },
    required: ['success', 'code', 'message'],
  };
}

/** The response schema of one status: the bodies and the error body, combined. */
export function outcomeSchema(outcome: StatusOutcome): JsonSchema {
  const schemas = [...outcome.bodies];
  if (outcome.errorCodes.size > 0) schemas.push(errorSchema(outcome.errorCodes));
  return oneOfSchemas(schemas);
}
