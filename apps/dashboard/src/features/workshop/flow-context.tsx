import type { CompileContext } from '@flowgate/flow-engine';
import { createContext, useContext, useMemo } from 'react';
import { useSecrets } from '../../api/secrets';
import { useTables } from '../../api/tables';

/**
 * What the engine checks a flow against besides the flow itself (the project's secret names, its
 * tables and their columns): the browser's diagnostics and the completion use the same facts as
 * Save and Deploy.
 */
const FlowContext = createContext<CompileContext>({});
export const FlowContextProvider = FlowContext.Provider;
export const useFlowContext = (): CompileContext => useContext(FlowContext);

/** The project's facts, each once loaded (until then nothing is checked against it). */
export function useProjectFlowContext(projectId: string): CompileContext {
  const secrets = useSecrets(projectId);
  const tables = useTables(projectId);
  return useMemo(
    () => ({
      ...(secrets.data ? { secret_names: secrets.data.map((secret) => secret.name) } : {}),
      ...(tables.data ? { tables: tables.data.map(({ name, columns }) => ({ name, columns })) } : {}),
    }),
    [secrets.data, tables.data],
  );
}
