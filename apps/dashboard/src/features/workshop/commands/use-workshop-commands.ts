import { useCallback, useState } from 'react';
import { errorMessage } from '../../../api/api-error';
import { useDeployFlow, useRollback, useSaveFlow, type FlowTarget } from '../../../api/flow-deploys';
import { useAnnounce } from '../../../ui/announcer';
import { saveBodyOf } from '../model/owner-doc';
import { dropKeptDraft } from '../model/kept-draft';
import { isDirty } from '../store/workshop-store';
import { useWorkshopStore } from '../store/workshop-context';
import { problemsFromError } from './server-problems';

/**
 * The Workshop's commands — Save, Deploy (saving first) and roll back — with their outcome announced
 * or listed in Problems. ("Actions" are the blocks of the pool, features/workshop/pool/.)
 */
export function useWorkshopCommands(target: FlowTarget) {
  const store = useWorkshopStore();
  const announce = useAnnounce();
  const saveMutation = useSaveFlow(target);
  const deployMutation = useDeployFlow(target);
  const rollbackMutation = useRollback(target);
  const resourceId = target.id;
  const [failure, setFailure] = useState<string | null>(null);

  const fail = useCallback(
    (what: string, error: unknown) => {
      store.getState().setServerProblems(problemsFromError(error));
      setFailure(`${what}: ${errorMessage(error)}`);
    },
    [store],
  );

  const save = useCallback(async (): Promise<boolean> => {
    const doc = store.getState().doc;
    store.getState().touch();
    try {
      await saveMutation.mutateAsync(saveBodyOf(doc));
      store.getState().markSaved(doc);
      dropKeptDraft(resourceId);
      setFailure(null);
      announce('Saved');
      return true;
    } catch (error) {
      fail('Save failed', error);
      return false;
    }
  }, [store, saveMutation, announce, fail, resourceId]);

  const deploy = useCallback(async (): Promise<boolean> => {
    store.getState().touch();
    if (isDirty(store.getState()) && !(await save())) return false;
    try {
      const deployed = await deployMutation.mutateAsync();
      store.getState().setServerProblems(deployed.diagnostics as never);
      setFailure(null);
      announce(`Deployed: version ${deployed.live_version ?? ''} is live`);
      return true;
    } catch (error) {
      fail('Deploy refused', error);
      return false;
    }
  }, [store, save, deployMutation, announce, fail]);

  const rollback = useCallback(
    async (version: number) => {
      try {
        await rollbackMutation.mutateAsync(version);
        setFailure(null);
        announce(`Version ${version} is live again`);
      } catch (error) {
        fail('Roll back failed', error);
      }
    },
    [rollbackMutation, announce, fail],
  );

  return { save, deploy, rollback, failure, busy: saveMutation.isPending || deployMutation.isPending || rollbackMutation.isPending };
}
