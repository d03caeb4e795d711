import { useState } from 'react';
import { useParams } from 'react-router';
import { useEndpoint } from '../../api/endpoints';
import type { Endpoint } from '../../api/types';
import { QueryState } from '../../ui/states';
import { docFromEndpoint } from './model/endpoint-doc';
import { WorkshopStoreContext } from './store/workshop-context';
import { createWorkshopStore } from './store/workshop-store';
import { WorkshopEditor } from './workshop-editor';

/** `/projects/:projectId/endpoints/:endpointId`: the Workshop (its own chunk, loaded on demand). */
export function WorkshopPage() {
  const { projectId = '', endpointId = '' } = useParams();
  const query = useEndpoint(projectId, endpointId);
  return (
    <QueryState query={query} label="Opening the Workshop…">
      {(endpoint) => <LoadedWorkshop key={endpoint.id} endpoint={endpoint} />}
    </QueryState>
  );
}

/** One store per endpoint, made from the draft when the page opens; saves and deploys refresh `endpoint`. */
function LoadedWorkshop({ endpoint }: { endpoint: Endpoint }) {
  const [store] = useState(() => createWorkshopStore(docFromEndpoint(endpoint)));
  return (
    <WorkshopStoreContext.Provider value={store}>
      <h1 className="ws-visually-hidden">Workshop: {endpoint.name}</h1>
      <WorkshopEditor endpoint={endpoint} />
    </WorkshopStoreContext.Provider>
  );
}
