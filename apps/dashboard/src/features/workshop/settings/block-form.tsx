import { referencesAt, type FlowNode } from '@flowgate/flow-engine';
import { useCallback } from 'react';
import { atField } from '../diagnostics/diagnostic-lookup';
import { useFlowContext } from '../flow-context';
import { blockFields, catalogueEntry, isFieldShown } from '../model/block-fields';
import { compileInputOf } from '../model/owner-doc';
import { useWorkshop, useWorkshopStore } from '../store/workshop-context';
import { CodeField, inputNames } from './code-field';
import { EntriesEditor } from './entries-editor';
import { FieldControl } from './field-control';
import { FieldShell } from './field-shell';
import { GroupField } from './group-field';
import { ListField } from './list-field';
import { FunctionArgsEditor } from './function-fields';
import { ColumnValuesEditor } from './table-fields';
import { TableScopeProvider } from './table-scope';

/** The settings of one block, one control per field of its schema (no block has a form of its own). */
export function BlockForm({ node }: { node: FlowNode }) {
  const store = useWorkshopStore();
  const setField = useWorkshop((state) => state.setField);
  const diagnostics = useWorkshop((state) => state.diagnostics);
  const entry = catalogueEntry(node.type);
  const config = node.config ?? {};
  const { secret_names: secretNames } = useFlowContext();
  // Asked when the completion opens, from the document as it is then.
  const suggestions = useCallback(() => {
    return referencesAt(compileInputOf(store.getState().doc), node.id, secretNames);
  }, [store, node.id, secretNames]);

  const form = (
    <div className="ws-form">
      <h2 className="ws-panel-title">
        {entry?.label ?? node.type} <span className="ws-muted">{node.id}</span>
      </h2>
      {entry && <p className="ws-muted ws-description">{entry.description}</p>}
      {blockFields(node.type)
        .filter((field) => isFieldShown(field, config))
        .map((field) => {
          const common = { field, nodeId: node.id, value: config[field.key], diagnostics, suggestions, onChange: (value: never) => setField(node.id, field.key, value) };
          if (field.dataTable === 'values') return <ColumnValuesEditor key={field.key} {...common} />;
          if (field.projectFunction === 'args') return <FunctionArgsEditor key={field.key} {...common} functionId={config.function} />;
          if (field.kind === 'group') return <GroupField key={field.key} {...common} />;
          if (field.kind === 'entries') return <EntriesEditor key={field.key} {...common} />;
          if (field.kind === 'list') return <ListField key={field.key} {...common} />;
          if (field.kind === 'code') return <CodeField key={field.key} {...common} inputNames={inputNames(config.inputs)} />;
          return (
            <FieldShell
              key={field.key}
              label={field.title}
              fieldKey={field.key}
              problems={atField(diagnostics, node.id, field.key)}
              hint={field.referenceName ? 'Later blocks read the result by this name (type { in their fields).' : undefined}
            >
              {(control) => (
                <FieldControl field={field} value={config[field.key]} onChange={(value) => setField(node.id, field.key, value)} control={control} suggestions={suggestions} />
              )}
            </FieldShell>
          );
        })}
    </div>
  );
  // A table block's fields offer the project's tables and the chosen table's columns.
  return usesTables(node.type) ? <TableScopeProvider tableName={config.table}>{form}</TableScopeProvider> : form;
}

const usesTables = (type: string) => blockFields(type).some((field) => field.dataTable !== null || field.itemFields.some((item) => item.dataTable !== null));
