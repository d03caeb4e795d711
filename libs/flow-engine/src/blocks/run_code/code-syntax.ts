import { parse } from 'acorn';
import type { SourcePosition } from '../../diagnostics/diagnostic';

export interface SyntaxProblem extends SourcePosition {
  /** The parser's reason, without its "(line:column)" suffix: "Unexpected token". */
  reason: string;
}

/**
 * Parses Run Code's code as the body of a function (a top-level `return` is allowed, `import`
 * and `export` are not) and gives the first syntax error with its 1-based line and column, or
 * null. Pure JavaScript (acorn), so Save, Deploy and the dashboard find the same errors; the
 * sandbox parses the code again when it runs and reports what it finds as a block failure.
 */
export function syntaxProblem(code: string): SyntaxProblem | null {
  try {
    parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: false });
    return null;
  } catch (error) {
    const { loc, message } = error as { loc?: { line: number; column: number }; message?: string };
    if (loc === undefined) throw error;
    return { line: loc.line, column: loc.column + 1, reason: String(message).replace(/\s*\(\d+:\d+\)$/, '') };
  }
}
