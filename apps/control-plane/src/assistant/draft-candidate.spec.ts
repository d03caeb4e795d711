import { candidateOf, repairRequest } from './draft-candidate';

describe('a tool call read into a draft', () => {
  it('keeps the endpoint’s settings the model left out, and places blocks that have no position', () => {
    const draft = candidateOf(
      {
        explanation: 'Hi',
        settings: { path: '/hello/' },
        flow: { nodes: [{ id: 'start', type: 'start' }, { id: 'n1', type: 'respond', position: { x: 5, y: 6 } }, { id: 'n2', type: 'respond' }], edges: [] },
      },
      { name: 'Existing', method: 'POST', path: '/old', auth: 'user', query_params: [] },
    );
    expect(draft.settings).toEqual({ name: 'Existing', method: 'POST', path: '/hello', auth: 'user', query_params: [] });
    expect(draft.flow.nodes).toEqual([
      { id: 'start', type: 'start', position: { x: 0, y: 0 } },
      { id: 'n1', type: 'respond', position: { x: 5, y: 6 } },
      { id: 'n2', type: 'respond', position: { x: 480, y: 0 } },
    ]);
    expect(draft.explanation).toBe('Hi');
  });

  it('makes an empty flow of an input that is not a proposal, keeping the settings as given when they do not parse', () => {
    expect(candidateOf('nonsense', {})).toEqual({ flow: { nodes: [], edges: [] }, settings: {}, explanation: '' });
    expect(candidateOf({ settings: { path: '/admin/x' } }, { name: 'A' }).settings).toEqual({ name: 'A', path: '/admin/x' });
  });

  it('asks for a repair with the errors only, each with its block and field', () => {
    const text = repairRequest([
      { severity: 'error', code: 'required_field', node_id: 'n2', field: 'name', message: 'Set Variable (n2): Name is required.' },
      { severity: 'warning', code: 'no_respond', node_id: null, field: null, message: 'A path can end without Respond.' },
      { severity: 'error', code: 'missing_start', node_id: null, field: null, message: 'The flow needs a Start block.' },
    ]);
    expect(text).toContain('- required_field (block n2, field name): Set Variable (n2): Name is required.');
    expect(text).toContain('- missing_start: The flow needs a Start block.');
    expect(text).not.toContain('no_respond');
  });
});
