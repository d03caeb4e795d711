import { validateFlow, type CompileContext, type Diagnostic, type EndpointSettings } from '@flowgate/flow-engine';
import { saveBody } from '../model/endpoint-doc';
import type { WorkshopDoc } from '../model/workshop-document';

/** The engine's compile of the document exactly as Save sends it: what Deploy will answer. */
export function diagnose(doc: WorkshopDoc, context: CompileContext = {}): Diagnostic[] {
  const { flow, ...settings } = saveBody(doc);
  return validateFlow({ flow, settings: settings as EndpointSettings, context });
}
