import type { CompileContext } from '@flowgate/flow-engine';
import { createContext, useContext, useMemo } from 'react';
import { useSecrets } from '../../api/secrets';

/**
 * What the engine checks a flow against besides the flow itself (the project's secret names):
 * the browser's diagnostics and the completion use the same facts as Save and Deploy.
 */
const FlowContext = createContext<CompileContext>({});
export const FlowContextProvider = FlowContext.Provider;
export const useFlowContext = (): CompileContext => useContext(FlowContext);

/** The project's facts, once loaded (until then nothing is checked against them). */
export function useProjectFlowContext(projectId: string): CompileContext {
  const secrets = useSecrets(projectId);
  return useMemo(() => (secrets.data ? { secret_names: secrets.data.map((secret) => secret.name) } : {}), [secrets.data]);
}
