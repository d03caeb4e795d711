import type { BlockDiagnostics, CompileContext } from '../../diagnostics/diagnostic';
import { articleOf, hasInputType } from '../../schema/function-inputs.schema';
import type { TemplateAst } from '../../template/template-ast';

interface CallConfig {
  function: string;
  args: TemplateAst;
}

/** The arguments as written: name → its template (a literal object gives literal templates). */
function argumentsOf(args: TemplateAst): Map<string, TemplateAst> | null {
  if (args.kind === 'object') return new Map(args.entries);
  if (args.kind === 'literal' && args.value !== null && typeof args.value === 'object' && !Array.isArray(args.value))
    return new Map(Object.entries(args.value).map(([name, value]) => [name, { kind: 'literal', value }]));
  return null;
}

/**
 * What Deploy refuses in a call (codes `unknown_function`, `function_not_live`,
 * `invalid_argument`): a function that does not exist, one without a live version (when the
 * flow calls live versions), an argument for no input, a required input without value or
 * default, a literal of the wrong type. A reference's type is checked when the call runs.
 */
export function checkCall(config: CallConfig, diagnostics: BlockDiagnostics, context: CompileContext): void {
  if (context.functions === undefined) return;
  const fn = context.functions.find((candidate) => candidate.id === config.function);
  if (fn === undefined) {
    diagnostics.error('unknown_function', 'function', 'the function it calls does not exist (it was deleted); choose another.');
    return;
  }
  if (context.function_versions !== 'draft' && !fn.live)
    diagnostics.error('function_not_live', 'function', `the function ${fn.name} has no live version; deploy it first.`);
  const args = argumentsOf(config.args);
  if (args === null) {
    diagnostics.error('invalid_argument', 'args', 'the arguments must be an object with one value per input.');
    return;
  }
  for (const name of args.keys()) {
    if (!fn.inputs.some((input) => input.name === name)) diagnostics.error('invalid_argument', `args.${name}`, `${fn.name} has no input named "${name}".`);
  }
  for (const input of fn.inputs) {
    const arg = args.get(input.name);
    const missing = arg === undefined || (arg.kind === 'literal' && (arg.value === null || arg.value === ''));
    if (missing) {
      if (input.required && (input.default === undefined || input.default === null))
        diagnostics.error('invalid_argument', `args.${input.name}`, `the input ${input.name} of ${fn.name} is required; give it a value.`);
      continue;
    }
    if (arg.kind === 'literal' && !hasInputType(arg.value, input.type))
      diagnostics.error('invalid_argument', `args.${input.name}`, `the input ${input.name} of ${fn.name} must be ${articleOf(input.type)}.`);
    else if (arg.kind === 'text' && input.type !== 'string' && input.type !== 'any')
      diagnostics.error('invalid_argument', `args.${input.name}`, `the input ${input.name} of ${fn.name} must be ${articleOf(input.type)}, and this value is text.`);
  }
}

