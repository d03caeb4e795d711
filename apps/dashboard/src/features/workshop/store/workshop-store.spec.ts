import { validateFlow } from '@flowgate/flow-engine';
import type { WorkshopDoc } from '../model/workshop-document';
import { compileInputOf } from '../model/owner-doc';
import { createWorkshopStore, FIELD_EDIT_MERGE_MS, isDirty } from './workshop-store';

const emptyFlow = (): WorkshopDoc => ({
  nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }],
  edges: [],
  settings: { kind: 'endpoint', name: 'Hello', method: 'GET', path: '/hello', auth: 'none', query_params: [{ key: 'name', default: 'world' }] },
});

function setup() {
  let now = 1_000_000;
  const clock = { advance: (ms: number) => (now += ms) };
  const store = createWorkshopStore(emptyFlow(), () => now);
  return { store, clock, state: () => store.getState() };
}

/** Builds Start → Set Variable → Manipulate Text → Respond through the store's actions. */
function helloFlow() {
  const context = setup();
  const { state } = context;
  const variable = state().addBlock('set_variable', { after: 'start' });
  const text = state().addBlock('manipulate_text', { after: variable });
  const respond = state().addBlock('respond', { after: text });
  return { ...context, variable, text, respond };
}

describe('workshop store', () => {
  it('adds blocks after the selected one, connected, each selected in turn', () => {
    const { state, variable, text, respond } = helloFlow();
    expect(state().doc.edges.map((edge) => `${edge.source}>${edge.target}`)).toEqual([`start>${variable}`, `${variable}>${text}`, `${text}>${respond}`]);
    expect(state().selectedNodeIds).toEqual([respond]);
    expect(state().doc.nodes.find((node) => node.id === text)?.config).toMatchObject({ operation: 'uppercase', ref: 'text1' });
  });

  it('inserts a block between the selected block and its next one', () => {
    const { state, variable, text } = helloFlow();
    const inserted = state().addBlock('encode_text', { after: variable });
    const pairs = state().doc.edges.map((edge) => `${edge.source}>${edge.target}`);
    expect(pairs).toContain(`${variable}>${inserted}`);
    expect(pairs).toContain(`${inserted}>${text}`);
    expect(pairs).not.toContain(`${variable}>${text}`);
  });

  it('undoes and redoes every kind of edit, one step each, and restores the flow exactly', () => {
    const { state, clock, variable, text } = helloFlow();
    const built = state().doc;
    state().setField(variable, 'name', 'greeting');
    clock.advance(FIELD_EDIT_MERGE_MS + 1);
    state().moveNodes({ [text]: { x: 500, y: 80 } });
    state().deleteElements([variable], []);
    state().connect('start', text);
    const edited = state().doc;
    for (let step = 0; step < 4; step++) state().undo();
    expect(state().doc).toEqual(built);
    for (let step = 0; step < 4; step++) state().redo();
    expect(state().doc).toEqual(edited);
  });

  it('merges keystrokes in one field into one step, but not edits of another field', () => {
    const { state, clock, variable } = helloFlow();
    for (const typed of ['g', 'gr', 'gre', 'greeting']) {
      state().setField(variable, 'name', typed);
      clock.advance(100);
    }
    state().setField(variable, 'value', 'Hello');
    state().undo();
    expect(state().doc.nodes.find((node) => node.id === variable)?.config).toMatchObject({ name: 'greeting', value: '' });
    state().undo();
    expect(state().doc.nodes.find((node) => node.id === variable)?.config).toMatchObject({ name: 'variable1' });
  });

  it('records a whole drag as one step and keeps selection out of history', () => {
    const { state, text } = helloFlow();
    const before = state().doc;
    state().select([text]);
    for (let x = 10; x <= 100; x += 10) state().drag({ [text]: { x, y: x } });
    expect(state().doc).toBe(before);
    state().endDrag();
    state().select([]);
    state().undo();
    expect(state().doc).toEqual(before);
    expect(state().selectedNodeIds).toEqual([]);
  });

  it('pastes copies with fresh ids and reference names that do not collide', () => {
    const { state, variable, text } = helloFlow();
    state().setField(variable, 'name', 'greeting');
    state().select([variable, text]);
    state().copy();
    state().paste();
    state().paste();
    const names = state().doc.nodes.map((node) => node.config?.name ?? node.config?.ref).filter(Boolean);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['greeting', 'greeting2', 'greeting3', 'text1', 'text2', 'text3']));
    expect(new Set(state().doc.nodes.map((node) => node.id)).size).toBe(state().doc.nodes.length);
    // The copied connection between the two blocks comes along, between the copies.
    const [copyVariable, copyText] = state().selectedNodeIds;
    expect(state().doc.edges).toContainEqual(expect.objectContaining({ source: copyVariable, target: copyText }));
  });

  it('duplicates without touching the clipboard, and never copies Start', () => {
    const { state, text } = helloFlow();
    state().select(['start', text]);
    state().duplicate();
    expect(state().clipboard).toBeNull();
    expect(state().doc.nodes.filter((node) => node.type === 'start')).toHaveLength(1);
    expect(state().doc.nodes.filter((node) => node.type === 'manipulate_text')).toHaveLength(2);
  });

  it('places pasted and duplicated copies where they cover no block, however often they are pasted', () => {
    const { state, variable, text } = helloFlow();
    state().select([variable, text]);
    state().copy();
    state().paste();
    state().paste();
    state().duplicate();
    const spots = state().doc.nodes.map((node) => node.position);
    const overlaps = spots.flatMap((a, i) => spots.slice(i + 1).filter((b) => Math.abs(a.x - b.x) < 180 && Math.abs(a.y - b.y) < 48));
    expect(overlaps).toEqual([]);
  });

  it('pastes and duplicates at the spot given (the pointer), the copies keeping their arrangement', () => {
    const { state, variable, text } = helloFlow();
    const [from, to] = [variable, text].map((id) => state().doc.nodes.find((node) => node.id === id)!.position);
    state().select([variable, text]);
    state().copy();
    const spans: Array<{ width: number; height: number }> = [];
    state().paste((span) => {
      spans.push(span);
      return { x: 1000, y: 500 };
    });
    const pasted = state().selectedNodeIds.map((id) => state().doc.nodes.find((node) => node.id === id)!.position);
    const corner = { x: Math.min(from!.x, to!.x), y: Math.min(from!.y, to!.y) };
    expect(pasted).toEqual([from, to].map((p) => ({ x: p!.x - corner.x + 1000, y: p!.y - corner.y + 500 })));
    expect(spans).toEqual([{ width: Math.abs(to!.x - from!.x), height: Math.abs(to!.y - from!.y) }]);

    state().duplicate(() => ({ x: -1000, y: 900 }));
    const duplicated = state().selectedNodeIds.map((id) => state().doc.nodes.find((node) => node.id === id)!.position);
    expect(duplicated[0]).toEqual({ x: from!.x - corner.x - 1000, y: from!.y - corner.y + 900 });
    // No spot (the pointer is not on the canvas): below the originals, as before.
    state().paste(() => null);
    const below = state().doc.nodes.find((node) => node.id === state().selectedNodeIds[0])!.position;
    expect(below.y).toBeGreaterThan(from!.y);
    // A spot on top of a block: the copies go down from there until they cover none.
    state().paste(() => ({ x: 1000, y: 500 }));
    const spots = state().doc.nodes.map((node) => node.position);
    expect(spots.flatMap((a, i) => spots.slice(i + 1).filter((b) => Math.abs(a.x - b.x) < 180 && Math.abs(a.y - b.y) < 48))).toEqual([]);
    expect(state().doc.nodes.find((node) => node.id === state().selectedNodeIds[0])!.position).toEqual({ x: from!.x - corner.x + 1000, y: from!.y - corner.y + 500 + 68 });
  });

  it('inserts a block dropped on a connection into it, making room only as far as needed', () => {
    const { state, variable, text } = helloFlow();
    const cut = state().doc.edges.find((edge) => edge.source === variable && edge.target === text)!;
    const before = state().doc.nodes.find((node) => node.id === text)!.position;
    const dropped = state().addBlock('encode_text', { position: { x: before.x - 100, y: before.y + 10 }, onEdge: cut.id });
    const pairs = state().doc.edges.map((edge) => `${edge.source}>${edge.target}`);
    expect(pairs).toEqual(expect.arrayContaining([`${variable}>${dropped}`, `${dropped}>${text}`]));
    expect(pairs).not.toContain(`${variable}>${text}`);
    // The next block moved right just enough to clear the new one (one step from it), not more.
    expect(state().doc.nodes.find((node) => node.id === text)!.position).toEqual({ x: before.x + 140, y: before.y });
    state().undo();
    expect(state().doc.edges.map((edge) => `${edge.source}>${edge.target}`)).toContain(`${variable}>${text}`);
  });

  it('drops fields that stop applying when the operation changes', () => {
    const { state, text } = helloFlow();
    state().setField(text, 'operation', 'replace');
    state().setField(text, 'find', 'a');
    state().setField(text, 'operation', 'split');
    expect(state().doc.nodes.find((node) => node.id === text)?.config).not.toHaveProperty('find');
  });

  it('never deletes Start', () => {
    const { state } = helloFlow();
    state().select(['start']);
    state().deleteSelection();
    expect(state().doc.nodes.some((node) => node.type === 'start')).toBe(true);
  });

  it('builds the hello flow that deploy accepts', () => {
    const { state, variable, text, respond } = helloFlow();
    state().setField(variable, 'name', 'greeting');
    state().setField(variable, 'value', 'Hello {params.name}');
    state().setField(text, 'input', '{local.greeting}');
    state().setField(respond, 'body', { message: '{result.text1}' });
    expect(validateFlow(compileInputOf(state().doc))).toEqual([]);
  });

  it('knows unsaved changes, and that undoing back to the saved flow leaves none', () => {
    const { state, variable } = helloFlow();
    state().markSaved();
    expect(isDirty(state())).toBe(false);
    state().setField(variable, 'name', 'x');
    expect(isDirty(state())).toBe(true);
    state().undo();
    expect(isDirty(state())).toBe(false);
  });
});
