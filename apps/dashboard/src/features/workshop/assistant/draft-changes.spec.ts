import { settingsOf, type WorkshopDoc } from '../model/workshop-document';
import { draftChanges } from './draft-changes';
import { docFromDraft } from './draft-doc';

const at = { x: 0, y: 0 };
const current: WorkshopDoc = {
  settings: { kind: 'endpoint', name: 'New endpoint', method: 'GET', path: '/new', auth: 'none', query_params: [] },
  nodes: [
    { id: 'start', type: 'start', position: at },
    { id: 'n1', type: 'set_variable', position: at, config: { name: 'a', value: 1 } },
    { id: 'n2', type: 'respond', position: at, config: { body: {} } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'n2' },
  ],
};

describe('a draft against the canvas', () => {
  it('names the blocks added, changed and removed, and the settings that change; a moved block is no change', () => {
    const next = docFromDraft(settingsOf(current, 'endpoint'), {
      settings: { name: 'Shout', method: 'POST', path: '/shout', query_params: [{ key: 'name', default: null }] },
      flow: {
        nodes: [
          { id: 'start', type: 'start', position: { x: 300, y: 40 } },
          { id: 'n2', type: 'respond', position: at, config: { body: { greeting: 'HELLO' } } },
          { id: 'n3', type: 'manipulate_text', position: at, config: { input: '{body.name}', operation: 'uppercase', ref: 'loud' } },
        ],
        edges: [{ id: 'e1', source: 'start', target: 'n2' }],
      },
      explanation: '',
      diagnostics: [],
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(next.settings).toMatchObject({ name: 'Shout', method: 'POST', path: '/shout', auth: 'none', body_schema: null });
    expect(draftChanges(current, next)).toEqual({
      added: [{ id: 'n3', label: 'Manipulate Text (n3)' }],
      changed: [{ id: 'n2', label: 'Respond (n2)' }],
      removed: [{ id: 'n1', label: 'Set Variable (n1)' }],
      settings: ['Name: New endpoint → Shout', 'Method: GET → POST', 'Path: /new → /shout', 'Query parameters: none → name'],
      connectionsChanged: true,
    });
  });

  it('finds nothing to change in the canvas as it is', () => {
    const same = docFromDraft(settingsOf(current, 'endpoint'), { settings: {}, flow: { nodes: current.nodes, edges: current.edges }, explanation: '', diagnostics: [], usage: { input_tokens: 0, output_tokens: 0 } });
    expect(draftChanges(current, same)).toEqual({ added: [], changed: [], removed: [], settings: [], connectionsChanged: false });
  });
});
