import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SettingsDraft } from '../model/workshop-document';
import { replayForm, type TestRequestForm } from './test-request';
import { useReplayedLog } from './use-test-run';

/**
 * `?replay=<logId>` (Logs → `Replay in Workshop`): the logged request's method, path and query,
 * for the `Test` panel to open with, ready to run against the draft.
 */
export function useReplay(projectId: string, settings: SettingsDraft): { logId: string | null; form: TestRequestForm | null; error: unknown } {
  const [params] = useSearchParams();
  const logId = params.get('replay');
  const log = useReplayedLog(projectId, logId);
  // Built once per log: later edits of the settings do not reset what the user typed.
  const form = useMemo(() => (log.data ? replayForm(settings, log.data) : null), [log.data]);
  return { logId, form, error: log.error };
}
