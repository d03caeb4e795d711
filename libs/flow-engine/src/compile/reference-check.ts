import type { BlockOutput } from '../blocks/block-definition';
import type { BlockDiagnostics } from '../diagnostics/diagnostic';
import { FORBIDDEN_SEGMENTS } from '../template/path-lookup';
import type { Reference } from '../template/template-ast';

/** A name written by a block, as the reference check sees it. */
export interface WrittenName extends BlockOutput {
  nodeId: string;
}

export interface ReferenceScope {
  paramKeys: ReadonlySet<string>;
  /** GET and DELETE requests carry no body. */
  hasBody: boolean;
  /** Every name written anywhere in the flow. */
  allWritten: readonly WrittenName[];
  /** Names written by blocks that run before the one being checked. */
  writtenBefore: readonly WrittenName[];
  /** The project's secret names; undefined when the caller does not know them (no check). */
  secretNames?: ReadonlySet<string>;
  /** A function's input names; undefined in an endpoint's flow, which has none. */
  inputNames?: ReadonlySet<string>;
  /** What the flow belongs to (default an endpoint): only an endpoint has a request, only a schedule `{schedule.…}`. */
  kind?: 'endpoint' | 'function' | 'schedule';
}

/** What a request reference reads: a function has no request of its own (its caller passes inputs). */
const REQUEST_SOURCES: ReadonlySet<string> = new Set(['param', 'body', 'header', 'headers', 'method', 'path']);

const SCALAR_NAMES = {
  header: 'a header',
  method: 'request.method',
  path: 'request.path',
  current_time: 'current_time',
  current_date: 'current_date',
  uuid: 'uuid',
} as const;

const ROOTS_HINT =
  'references start with params., local., result., body., request., secrets., a Send External Request block name, current_time, current_date or uuid';

/** Reports references that can never hold a value where they are used. */
export function checkReference(ref: Reference, field: string, scope: ReferenceScope, diagnostics: BlockDiagnostics): void {
  const written = `{${ref.text}}`;
  const forbidden = [ref.name ?? '', ...ref.path].find((segment) => FORBIDDEN_SEGMENTS.has(segment));
  if (forbidden !== undefined) {
    diagnostics.error('forbidden_path_segment', field, `${written} uses "${forbidden}", which references may not contain.`);
    return;
  }
  const scalar = (what: string): void => {
    if (ref.path.length > 0) diagnostics.error('unresolvable_path', field, `${written} can never have a value: ${what} is text, with nothing below it.`);
  };
  const kind = scope.kind ?? 'endpoint';
  if (kind !== 'endpoint' && REQUEST_SOURCES.has(ref.source)) {
    if (kind === 'function') diagnostics.error('no_request_in_function', field, `${written}: a function has no request; add an input and pass the value from the caller.`);
    else diagnostics.error('no_request_in_schedule', field, `${written}: a schedule runs on a clock, with no request; use {schedule.name} or {schedule.time}.`);
    return;
  }
  switch (ref.source) {
    case 'schedule':
      if (kind !== 'schedule') diagnostics.error('schedule_outside_schedule', field, `${written}: only a schedule's flow has {schedule.name} and {schedule.time}.`);
      else if (ref.name !== 'name' && ref.name !== 'time') diagnostics.error('unknown_reference', field, `${written}: a schedule has {schedule.name} and {schedule.time}.`);
      else scalar('the schedule\'s ' + ref.name);
      return;
    case 'input':
      if (scope.inputNames === undefined) diagnostics.error('input_outside_function', field, `${written}: only a function's flow has inputs.`);
      else if (!scope.inputNames.has(ref.name ?? '')) diagnostics.error('unknown_input', field, `${written}: the function has no input named "${ref.name}"; add it to the function's inputs.`);
      return;
    case 'invalid':
      diagnostics.error('unknown_reference', field, `${written} is not a known reference; ${ROOTS_HINT}.`);
      return;
    case 'param':
      if (!scope.paramKeys.has(ref.name ?? '')) {
        diagnostics.error('unknown_param', field, `${written} refers to the query parameter "${ref.name}", which the endpoint does not configure; add it to the endpoint's query parameters.`);
      } else scalar('a query parameter');
      return;
    case 'body':
      if (!scope.hasBody) diagnostics.warning('body_unavailable', field, `${written} is always null: GET and DELETE requests have no body.`);
      return;
    case 'headers':
      return;
    case 'secret':
      if (scope.secretNames !== undefined && !scope.secretNames.has(ref.name ?? '')) {
        diagnostics.error('unknown_secret', field, `${written}: the project has no secret named "${ref.name}"; add it in Settings → Secrets.`);
      } else scalar('a secret');
      return;
    case 'header':
    case 'method':
    case 'path':
    case 'current_time':
    case 'current_date':
    case 'uuid':
      scalar(SCALAR_NAMES[ref.source]);
      return;
    case 'var':
      checkVariable(ref, field, scope, diagnostics);
  }
}

function checkVariable(ref: Reference, field: string, scope: ReferenceScope, diagnostics: BlockDiagnostics): void {
  const name = ref.name ?? '';
  const written = `{${ref.text}}`;
  const byName = ref.via === 'block';
  const matching = (names: readonly WrittenName[]) => names.filter((output) => output.name === name && (!byName || output.readableByName));
  const before = matching(scope.writtenBefore);
  if (before.length === 0) {
    const anywhere = matching(scope.allWritten);
    if (anywhere.length > 0) {
      const where = [...new Set(anywhere.map((output) => output.nodeId))].join(', ');
      diagnostics.error('unresolved_reference', field, `${written} is written only by blocks that do not run before this one (${where}).`);
    } else if (byName) {
      const result = scope.allWritten.some((output) => output.name === name);
      diagnostics.error(
        'unknown_reference',
        field,
        result
          ? `${written}: "${name}" is a block result, read it as {result.${[name, ...ref.path].join('.')}}.`
          : `${written} is not a known reference: no Send External Request block is named "${name}"; ${ROOTS_HINT}.`,
      );
    } else {
      diagnostics.error('unresolved_reference', field, `${written}: no block before this one sets "${name}".`);
    }
    return;
  }
  const [first] = ref.path;
  if (first === undefined || before.some((output) => output.fields === null || output.fields.includes(first))) return;
  const offered = [...new Set(before.flatMap((output) => output.fields ?? []))];
  diagnostics.error(
    'unresolvable_path',
    field,
    offered.length === 0
      ? `${written} can never have a value: "${name}" is text, with nothing below it.`
      : `${written} can never have a value: "${name}" has ${offered.map((key) => `.${key}`).join(', ')}.`,
  );
}
