import { compileFlow } from '../compile/compile-flow';
import type { CompiledFlow } from '../compile/compiled-flow';
import { prepareFlow } from './prepare-flow';
import { respondingFlow, settings } from '../testing/flow-fixtures';

function compiled(): CompiledFlow {
  const flow = respondingFlow([{ type: 'set_variable', config: { name: 'a', value: '{params.p}' } }], { a: '{local.a}' });
  const result = compileFlow({ flow, settings: settings({ query_params: [{ key: 'p', default: null }] }) });
  if (!result.ok) throw new Error('expected the flow to compile');
  return JSON.parse(JSON.stringify(result.compiled)) as CompiledFlow;
}

describe('prepareFlow', () => {
  it('prepares a stored compiled flow', () => {
    expect(prepareFlow(compiled()).entry?.id).toBe('n1');
  });

  it.each<[string, (flow: CompiledFlow) => unknown]>([
    ['an unknown format', (flow) => ({ ...flow, format: 99 })],
    ['a missing block list', ({ blocks: _blocks, ...rest }) => rest],
    ['an unknown block type', (flow) => ({ ...flow, blocks: flow.blocks.map((block) => ({ ...block, type: 'teleport' })) })],
    ['a config without a required field', (flow) => ({ ...flow, blocks: [{ ...flow.blocks[0], config: {} }, flow.blocks[1]] })],
    ['a template that is not an AST', (flow) => ({ ...flow, blocks: [{ ...flow.blocks[0], config: { name: 'a', value: 'raw text' } }, flow.blocks[1]] })],
    ['a connection that points backwards', (flow) => ({ ...flow, blocks: [flow.blocks[0], { ...flow.blocks[1], type: 'set_variable', config: flow.blocks[0].config, next: 0 }] })],
    ['an entry out of range', (flow) => ({ ...flow, entry: 5 })],
    ['a reference to an unconfigured parameter', (flow) => ({ ...flow, query_params: [] })],
  ])('throws on %s', (_case, corrupt) => {
    expect(() => prepareFlow(corrupt(compiled()) as CompiledFlow)).toThrow(/Malformed compiled flow|not a configured query parameter/);
  });
});
