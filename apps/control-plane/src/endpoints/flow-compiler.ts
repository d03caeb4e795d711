import { Injectable } from '@nestjs/common';
import {
  type CompileContext,
  type Diagnostic,
  type EndpointSettings,
  type FlowDocument,
  type FunctionInput,
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

  /** A function's flow: it reads its inputs and ends with Return. */
  validateFunction(flow: FlowDocument, inputs: FunctionInput[], context: CompileContext): Diagnostic[] {
    return validateFlow({ flow, inputs, context });
  }

  /** A schedule's flow: no request, `{schedule.name}` and `{schedule.time}`. */
  validateSchedule(flow: FlowDocument, context: CompileContext): Diagnostic[] {
    return validateFlow({ flow, schedule: true, context });
  }

  compileSchedule(flow: FlowDocument, context: CompileContext): CompileOutcome {
    const result = compileFlow({ flow, schedule: true, context });
    return result.ok ? { ok: true, compiled: result.compiled, diagnostics: result.diagnostics } : result;
  }

  compileFunction(flow: FlowDocument, inputs: FunctionInput[], context: CompileContext): CompileOutcome {
    const result = compileFlow({ flow, inputs, context });
    return result.ok ? { ok: true, compiled: result.compiled, diagnostics: result.diagnostics } : result;
  }
}
