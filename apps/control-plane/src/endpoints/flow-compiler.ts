import { Injectable } from '@nestjs/common';
import {
  type CompileContext,
  type Diagnostic,
  type EndpointSettings,
  type FlowDocument,
  compileFlow,
  validateFlow,
} from '@flowgate/flow-engine';

export type CompileOutcome = { ok: true; compiled: unknown; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

/** The flow engine behind an injectable seam (validation for Save, compilation for Deploy). */
@Injectable()
export class FlowCompiler {
  validate(flow: FlowDocument, settings: EndpointSettings, context: CompileContext): Diagnostic[] {
    return validateFlow({ flow, settings, context });
  }

  compile(flow: FlowDocument, settings: EndpointSettings, context: CompileContext): CompileOutcome {
    const result = compileFlow({ flow, settings, context });
    return result.ok ? { ok: true, compiled: result.compiled, diagnostics: result.diagnostics } : result;
  }
}
