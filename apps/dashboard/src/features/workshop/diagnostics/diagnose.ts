import { validateFlow, type CompileContext, type Diagnostic } from '@flowgate/flow-engine';
import { compileInputOf } from '../model/owner-doc';
import type { WorkshopDoc } from '../model/workshop-document';

/** The engine's compile of the document exactly as Save sends it: what Deploy will answer. */
export function diagnose(doc: WorkshopDoc, context: CompileContext = {}): Diagnostic[] {
  return validateFlow({ ...compileInputOf(doc), context });
}
