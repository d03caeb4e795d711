import '@testing-library/jest-dom';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { WorkshopStoreContext } from '../store/workshop-context';
import { createWorkshopStore } from '../store/workshop-store';
import { ActionPool } from './action-pool';

describe('action pool', () => {
  it('says how to add a block after the selected one, and a double-click does exactly that', async () => {
    const store = createWorkshopStore({
      settings: { kind: 'endpoint', name: 'Greet', method: 'GET', path: '/greet', auth: 'none', query_params: [] },
      nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }],
      edges: [],
    });
    render(
      <WorkshopStoreContext.Provider value={store}>
        <ActionPool searchRef={createRef()} />
      </WorkshopStoreContext.Provider>,
    );
    const pool = screen.getByRole('complementary', { name: 'Action pool' });
    expect(pool).toHaveTextContent('select that block, then double-click here (or press Enter)');

    act(() => store.getState().select(['start']));
    expect(pool).toHaveTextContent('Double-click a block here (or press Enter on it) to add it after the selected one.');
    await userEvent.setup().dblClick(screen.getByRole('button', { name: 'Respond' }));
    const { nodes, edges } = store.getState().doc;
    expect(nodes.map((node) => node.type)).toEqual(['start', 'respond']);
    expect(edges).toEqual([expect.objectContaining({ source: 'start', target: nodes[1].id })]);
  });

  it('lists Stream Text under Integrations, beside Generate Text', () => {
    const store = createWorkshopStore({
      settings: { kind: 'endpoint', name: 'Story', method: 'GET', path: '/story', auth: 'none', query_params: [] },
      nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 } }],
      edges: [],
    });
    render(
      <WorkshopStoreContext.Provider value={store}>
        <ActionPool searchRef={createRef()} />
      </WorkshopStoreContext.Provider>,
    );
    const integrations = screen.getByRole('region', { name: 'Integrations' });
    expect(within(integrations).getByRole('button', { name: 'Stream Text' })).toBeInTheDocument();
    expect(within(integrations).getByRole('button', { name: 'Generate Text' })).toBeInTheDocument();
  });
});
