import { useState } from 'react';
import { useParams } from 'react-router';
import type { FlowKind, FlowResource } from '../../api/flow-calls';
import { useEndpoint } from '../../api/endpoints';
import { useFunction } from '../../api/functions';
import { useSchedule } from '../../api/schedules';
import { QueryState } from '../../ui/states';
import { docFromResource, KIND_WORDS } from './model/owner-doc';
import { WorkshopStoreContext } from './store/workshop-context';
import { createWorkshopStore } from './store/workshop-store';
import { WorkshopEditor } from './workshop-editor';

/** `/projects/:projectId/endpoints/:endpointId`: the Workshop (its own chunk, loaded on demand). */
export function WorkshopPage() {
  const { projectId = '', endpointId = '' } = useParams();
  return <LoadingWorkshop kind="endpoint" query={useEndpoint(projectId, endpointId)} />;
}

/** `/projects/:projectId/functions/:functionId`: the same Workshop on a function's flow. */
export function FunctionWorkshopPage() {
  const { projectId = '', functionId = '' } = useParams();
  return <LoadingWorkshop kind="function" query={useFunction(projectId, functionId)} />;
}

/** `/projects/:projectId/schedules/:scheduleId`: the same Workshop on a schedule's flow. */
export function ScheduleWorkshopPage() {
  const { projectId = '', scheduleId = '' } = useParams();
  return <LoadingWorkshop kind="schedule" query={useSchedule(projectId, scheduleId)} />;
}

function LoadingWorkshop({ kind, query }: { kind: FlowKind; query: { data: FlowResource | undefined; error: unknown; isPending: boolean; refetch: () => unknown } }) {
  return (
    <QueryState query={query} label="Opening the Workshop…">
      {(resource) => <LoadedWorkshop key={resource.id} kind={kind} resource={resource} />}
    </QueryState>
  );
}

/** One store per endpoint, function or schedule, made from its draft when the page opens; saves and deploys refresh `resource`. */
function LoadedWorkshop({ kind, resource }: { kind: FlowKind; resource: FlowResource }) {
  const [store] = useState(() => createWorkshopStore(docFromResource(kind, resource)));
  return (
    <WorkshopStoreContext.Provider value={store}>
      <h1 className="ws-visually-hidden">
        Workshop: {kind === 'endpoint' ? '' : `${KIND_WORDS[kind]} `}
        {resource.name}
      </h1>
      <WorkshopEditor target={{ kind, projectId: resource.project_id, id: resource.id }} resource={resource} />
    </WorkshopStoreContext.Provider>
  );
}
