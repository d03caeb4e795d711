import type { DataTableShape } from '@flowgate/contracts';
import type { FunctionInput } from '../schema/function-inputs.schema';
/** One finding of validation. Errors block Deploy; warnings are shown and Deploy proceeds. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  /** Stable snake_case code; the list is in docs/flow-engine.md. */
  code: string;
  /** The block concerned, or null for the flow or the endpoint settings. */
  node_id: string | null;
  /** Config field (dotted path, e.g. `headers.3.value`) or settings field, or null. */
  field: string | null;
  /** A sentence a person understands, naming the block ("Match Regex (n4): …"). */
  message: string;
  /** Where in a code field (Run Code's `code`) the problem is: 1-based line and column. */
  line?: number;
  column?: number;
}

/** A place in a code field: 1-based line and column. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Facts about the project that validation can use when the caller knows them. */
export interface CompileContext {
  /** Domains verified with the project's email integration; enables the From check at Deploy. */
  email_verified_domains?: string[];
  /** Names of the project's secrets; enables the `unknown_secret` check of `{secrets.NAME}`. */
  secret_names?: string[];
  /** The project's data tables; enables the `unknown_table` / `unknown_column` / operator checks of the table blocks. */
  tables?: DataTableShape[];
  /** Whether the project has a text-generation integration; enables the `integration_missing` check of Stream Text. */
  text_generation?: boolean;
  /** The project's functions; enables the checks of Call Function (the function exists, is live, gets its inputs). */
  functions?: CallableFunction[];
  /**
   * Which version Call Function calls: `live` (Deploy, live requests; the default) or `draft`
   * (the preview address and test runs, which call the functions' saved drafts).
   */
  function_versions?: 'live' | 'draft';
}

/** A function as the checks of Call Function see it. */
export interface CallableFunction {
  id: string;
  name: string;
  inputs: ReadonlyArray<Pick<FunctionInput, 'name' | 'type' | 'required' | 'default'>>;
  /** It has a live version. */
  live: boolean;
}

/** Collects diagnostics for one block, prefixing messages with the block's label and id. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  error(code: string, nodeId: string | null, field: string | null, message: string, position?: SourcePosition): void {
    this.items.push({ severity: 'error', code, node_id: nodeId, field, message, ...position });
  }

  warning(code: string, nodeId: string | null, field: string | null, message: string): void {
    this.items.push({ severity: 'warning', code, node_id: nodeId, field, message });
  }

  hasErrors(): boolean {
    return this.items.some((item) => item.severity === 'error');
  }

  forBlock(nodeId: string, label: string): BlockDiagnostics {
    return new BlockDiagnostics(this, nodeId, label);
  }
}

export class BlockDiagnostics {
  constructor(
    private readonly sink: DiagnosticSink,
    readonly nodeId: string,
    readonly label: string,
  ) {}

  error(code: string, field: string | null, message: string, position?: SourcePosition): void {
    this.sink.error(code, this.nodeId, field, `${this.label} (${this.nodeId}): ${message}`, position);
  }

  warning(code: string, field: string | null, message: string): void {
    this.sink.warning(code, this.nodeId, field, `${this.label} (${this.nodeId}): ${message}`);
  }
}
