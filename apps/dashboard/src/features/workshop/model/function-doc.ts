import type { FunctionInput } from '@flowgate/flow-engine';
import type { FlowFunction, FunctionInputBody } from '../../../api/types';
import { withStart } from './endpoint-doc';
import { settingsOf, type FunctionInputDraft, type WorkshopDoc } from './workshop-document';

/** The editor's document from a function as the API returns it (or one of its versions). */
export function docFromFunction(fn: Pick<FlowFunction, 'name' | 'description' | 'inputs' | 'flow'>): WorkshopDoc {
  return {
    ...withStart(fn.flow),
    settings: {
      kind: 'function',
      name: fn.name,
      description: fn.description,
      inputs: fn.inputs.map(({ name, type, required, default: fallback }) => ({ name, type, required, ...(fallback !== undefined && fallback !== null ? { default: fallback } : {}) })),
    },
  };
}

/** The inputs as Save sends them: an input without a default has none. */
export function inputsBody(inputs: readonly FunctionInputDraft[]): FunctionInputBody[] {
  return inputs.map(({ name, type, required, default: fallback }) => ({ name, type, required, ...(fallback !== undefined ? { default: fallback as never } : {}) }));
}

/** What Save sends (`PUT …/functions/:id`). */
export function functionSaveBody(doc: WorkshopDoc) {
  const settings = settingsOf(doc, 'function');
  return { name: settings.name, description: settings.description, inputs: inputsBody(settings.inputs), flow: { nodes: doc.nodes, edges: doc.edges } };
}

/** The inputs as the engine checks them. */
export const engineInputs = (inputs: readonly FunctionInputDraft[]): FunctionInput[] =>
  inputs.map((input) => ({ ...input, ...(input.default !== undefined ? { default: input.default as FunctionInput['default'] } : {}) }) as FunctionInput);
