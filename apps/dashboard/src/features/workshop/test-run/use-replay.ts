import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { EndpointSettingsDraft } from '../model/workshop-document';
import { replayForm, type TestRequestForm } from './test-request';
import { useReplayedLog } from './use-test-run';

/**
 * `?replay=<logId>` (Logs → `Replay in Workshop`): the logged request's method, path and query,
 * for the `Test` panel to open with, ready to run against the draft.
 */
export function useReplay(projectId: string, settings: EndpointSettingsDraft | null): { logId: string | null; form: TestRequestForm | null; error: unknown } {
  const [params] = useSearchParams();
  const logId = params.get('replay');
  const log = useReplayedLog(projectId, settings === null ? null : logId);
  // Built once per log (with the settings of that moment): later edits of the settings do not
  // reset what the user typed. State adjusted while rendering, as React documents for values
  // derived from a previous render.
  const [built, setBuilt] = useState<{ log: typeof log.data; form: TestRequestForm | null }>({ log: undefined, form: null });
  if (built.log !== log.data) setBuilt({ log: log.data, form: log.data && settings !== null ? replayForm(settings, log.data) : null });
  return { logId, form: built.form, error: log.error };
}
