import type { WorkshopDoc } from '../model/workshop-document';
import { describeChanges } from './version-changes';

const doc = (respondConfig: Record<string, unknown>, defaultValue: string | null = null): WorkshopDoc => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'r', type: 'respond', position: { x: 240, y: 0 }, config: respondConfig as never },
  ],
  edges: [{ id: 'e1', source: 'start', target: 'r' }],
  settings: { kind: 'endpoint', name: 'Hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: defaultValue }] },
});

describe('describeChanges', () => {
  it('reports nothing for a version whose configs come back with their keys reordered (jsonb), or an empty default stored as none', () => {
    const draft = doc({ status: 200, body: { message: 'hi', count: 1 } }, '');
    const stored = doc({ body: { count: 1, message: 'hi' }, status: 200 }, null);
    expect(describeChanges(stored, draft)).toEqual([]);
  });

  it('names the fields that really changed, and settings, blocks and connections', () => {
    const version = doc({ status: 200, body: { message: 'hi' } });
    const draft: WorkshopDoc = { ...doc({ status: 201, body: { message: 'hi' } }, 'world'), edges: [] };
    expect(describeChanges(version, draft)).toEqual(['Query parameters: [{"key":"name","default":null}] → [{"key":"name","default":"world"}]', 'Respond: settings changed (Status)', 'Connections changed']);
  });
});
