import type { CallableFunction, CompileContext } from '@flowgate/flow-engine';
import { createContext, useContext, useMemo } from 'react';
import { useFunctions } from '../../api/functions';
import { useSecrets } from '../../api/secrets';
import { useTables } from '../../api/tables';

/**
 * What the engine checks a flow against besides the flow itself (the project's secret names, its
 * tables and their columns, its functions and their inputs): the browser's diagnostics and the completion use the same facts as
 * Save and Deploy.
 */
const FlowContext = createContext<CompileContext>({});
export const FlowContextProvider = FlowContext.Provider;
export const useFlowContext = (): CompileContext => useContext(FlowContext);

/** The project's facts, each once loaded (until then nothing is checked against it). */
export function useProjectFlowContext(projectId: string): CompileContext {
  const secrets = useSecrets(projectId);
  const tables = useTables(projectId);
  const functions = useFunctions(projectId);
  return useMemo(
    () => ({
      ...(secrets.data ? { secret_names: secrets.data.map((secret) => secret.name) } : {}),
      ...(tables.data ? { tables: tables.data.map(({ name, columns }) => ({ name, columns })) } : {}),
      // Deploy checks calls against live versions: a function never deployed is a problem now, not at Deploy.
      ...(functions.data ? { functions: functions.data.map(({ id, name, inputs, live_version }) => ({ id, name, inputs: inputs as CallableFunction['inputs'], live: live_version !== null })) } : {}),
    }),
    [secrets.data, tables.data, functions.data],
  );
}
