import type { DataTableShape } from '@flowgate/contracts';
import { validateFlow, type Diagnostic, type EndpointSettings } from '@flowgate/flow-engine';
import { saveBody } from '../model/endpoint-doc';
import type { WorkshopDoc } from '../model/workshop-document';

/**
 * The engine's compile of the document exactly as Save sends it: what Deploy will answer. With the
 * project's tables, the table blocks' tables, columns and operators are checked as Deploy does.
 */
export function diagnose(doc: WorkshopDoc, tables?: readonly DataTableShape[]): Diagnostic[] {
  const { flow, ...settings } = saveBody(doc);
  return validateFlow({ flow, settings: settings as EndpointSettings, context: tables ? { tables: [...tables] } : undefined });
}
