import type { FlowDocument, FunctionInput } from '@flowgate/flow-engine';
import { canonicalJson } from '../common/canonical-json';
import type { FunctionInputBody, FunctionVersionView, FunctionView } from './dto/function.dto';
import type { FunctionContent, FunctionRecord, FunctionVersionRecord } from './functions.repository';

export const functionContentOf = (input: FunctionInputBody): FunctionContent => ({
  name: input.name,
  description: input.description,
  inputs: input.inputs,
  flow: input.flow,
});

export const inputsOf = (content: FunctionContent): FunctionInput[] => (Array.isArray(content.inputs) ? (content.inputs as FunctionInput[]) : []);
export const functionFlowOf = (content: FunctionContent): FlowDocument => content.flow as FlowDocument;

/** Same name, description, inputs and flow, whatever order jsonb returned the keys in. */
export function sameFunctionContent(a: FunctionContent, b: FunctionContent): boolean {
  const pick = (c: FunctionContent) => canonicalJson([c.name, c.description, c.inputs, c.flow]);
  return pick(a) === pick(b);
}

const contentView = (content: FunctionContent) => ({
  name: content.name,
  description: content.description,
  inputs: inputsOf(content),
  flow: content.flow as FunctionView['flow'],
});

export function toFunctionView(record: FunctionRecord): FunctionView {
  const live = record.liveVersion !== null;
  return {
    id: record.id,
    project_id: record.projectId,
    ...contentView(record),
    status: live ? 'live' : 'draft',
    live_version: record.liveVersion,
    has_undeployed_changes: !live || record.draftChangedAt !== null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

export function toFunctionVersionView(version: FunctionVersionRecord, liveVersion: number | null): FunctionVersionView {
  return { version: version.version, ...contentView(version), live: version.version === liveVersion, created_at: version.createdAt.toISOString() };
}
