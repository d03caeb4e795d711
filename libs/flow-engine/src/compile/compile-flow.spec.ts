import { compileFlow, validateFlow } from './compile-flow';
import { codes, diagnostics, graphFlow, linearFlow, respondingFlow, settings } from '../testing/flow-fixtures';
import { isTemplateAst } from '../template/template-ast';

const respond = { type: 'respond', config: { body: { ok: true } } };
const setVar = (name: string, value: string) => ({ type: 'set_variable', config: { name, value } });

describe('flow validation', () => {
  it('accepts a valid flow with no diagnostics', () => {
    expect(diagnostics(linearFlow([setVar('a', '1'), respond]))).toEqual([]);
  });

  it('requires a Start block', () => {
    const flow = { nodes: [{ id: 'n1', type: 'respond', position: { x: 0, y: 0 }, config: {} }], edges: [] };
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ severity: 'error', code: 'missing_start', node_id: null }));
  });

  it('allows only one Start block', () => {
    const flow = linearFlow([respond]);
    flow.nodes.push({ id: 'start2', type: 'start', position: { x: 0, y: 0 } });
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ code: 'multiple_starts', node_id: 'start2' }));
  });

  it('refuses loops and names the blocks in them', () => {
    const flow = graphFlow([{ id: 'a', ...setVar('x', '1') }, { id: 'b', ...setVar('y', '2') }], ['start>a', 'a>b', 'b>a']);
    const found = diagnostics(flow).filter((d) => d.code === 'cycle');
    expect(found).toHaveLength(1);
    expect(found[0].message).toContain('a → b → a');
  });

  it('refuses a block that no path from Start reaches', () => {
    const flow = graphFlow([{ id: 'a', ...respond }, { id: 'lost', ...respond }], ['start>a']);
    expect(diagnostics(flow)).toEqual([expect.objectContaining({ severity: 'error', code: 'unreachable_block', node_id: 'lost' })]);
  });

  it('makes Condition connections leave by the true or the false handle', () => {
    const condition = { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } };
    const flow = graphFlow([condition, { id: 'r1', ...respond }, { id: 'r2', ...respond }], ['start>c', 'c>r1', 'c:false>r2']);
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ code: 'invalid_condition_handle', node_id: 'c' }));
  });

  it('allows one connection per Condition handle', () => {
    const condition = { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } };
    const flow = graphFlow([condition, { id: 'r1', ...respond }, { id: 'r2', ...respond }], ['start>c', 'c:true>r1', 'c:true>r2']);
    expect(codes(diagnostics(flow))).toContain('duplicate_condition_branch');
  });

  it('lets other blocks lead to one next block only', () => {
    const flow = graphFlow([{ id: 'a', ...setVar('x', '1') }, { id: 'r1', ...respond }, { id: 'r2', ...respond }], ['start>a', 'a>r1', 'a>r2']);
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ code: 'multiple_next_blocks', node_id: 'a' }));
  });

  it('refuses connections out of Respond and into Start', () => {
    const flow = graphFlow([{ id: 'r', ...respond }, { id: 'after', ...respond }], ['start>r', 'r>after', 'after>start']);
    expect(codes(diagnostics(flow))).toEqual(expect.arrayContaining(['edge_after_end', 'edge_into_start']));
  });

  it('reports connections to blocks that do not exist', () => {
    const flow = graphFlow([{ id: 'r', ...respond }], ['start>r', 'r2>r']);
    expect(diagnostics(flow)).toContainEqual(expect.objectContaining({ code: 'unknown_edge_block', field: 'edges.1.source' }));
  });

  it('reports unknown block types and duplicate block ids', () => {
    const flow = linearFlow([{ type: 'teleport' }, respond]);
    flow.nodes.push({ ...flow.nodes[2] });
    expect(codes(diagnostics(flow))).toEqual(expect.arrayContaining(['unknown_block_type', 'duplicate_node_id']));
  });

  it('reports a document that is not a flow', () => {
    expect(diagnostics({ nodes: [{ id: 'a' }] })).toContainEqual(expect.objectContaining({ code: 'invalid_document', node_id: 'a' }));
    expect(codes(diagnostics('not a flow'))).toEqual(['invalid_document']);
  });

  it('reports a missing required field with the block, the field and a readable message', () => {
    const found = diagnostics(linearFlow([{ id: 'n3', type: 'encode_text', config: { encoding: 'hex', ref: 'out' } }, respond]));
    expect(found).toEqual([{ severity: 'error', code: 'required_field', node_id: 'n3', field: 'input', message: 'Encode Text (n3): Input Text is required.' }]);
  });

  it('reports the fields an operation needs', () => {
    const found = diagnostics(linearFlow([{ type: 'manipulate_text', config: { input: 'a', operation: 'replace', ref: 'out' } }, respond]));
    expect(found).toEqual([expect.objectContaining({ code: 'required_field', field: 'find', message: 'Manipulate Text (n1): Find is required for replace.' })]);
  });

  it('reports an invalid enum value with the allowed values', () => {
    const found = diagnostics(linearFlow([{ type: 'encode_text', config: { input: 'a', encoding: 'rot13', ref: 'out' } }, respond]));
    expect(found[0]).toMatchObject({ code: 'invalid_field', field: 'encoding' });
    expect(found[0].message).toContain('"base64url"');
  });

  it('allows at most 10 query parameters', () => {
    const query_params = Array.from({ length: 11 }, (_, index) => ({ key: `p${index}`, default: null }));
    const found = diagnostics(linearFlow([respond]), { settings: settings({ query_params }) });
    expect(found).toEqual([expect.objectContaining({ code: 'too_many_query_params', node_id: null, field: 'query_params' })]);
    expect(found[0].message).toContain('at most 10');
  });

  it('refuses the same query parameter twice', () => {
    const found = diagnostics(linearFlow([respond]), { settings: settings({ query_params: [{ key: 'a', default: null }, { key: 'a', default: 'x' }] }) });
    expect(codes(found)).toEqual(['duplicate_query_param']);
  });

  it('allows at most 10 headers per external request', () => {
    const headers = Array.from({ length: 11 }, (_, index) => ({ key: `x-h${index}`, value: 'v' }));
    const found = diagnostics(linearFlow([{ type: 'http_request', config: { name: 'api', url: 'https://example.com', headers } }, respond]));
    expect(found).toEqual([expect.objectContaining({ code: 'too_many_headers', field: 'headers', node_id: 'n1' })]);
  });

  it('reports a query parameter reference the endpoint does not configure', () => {
    const found = diagnostics(respondingFlow([], { a: '{params.q}' }));
    expect(found).toEqual([expect.objectContaining({ code: 'unknown_param', node_id: 'respond', field: 'body.a' })]);
  });

  it('reports a variable that no block sets', () => {
    expect(diagnostics(respondingFlow([], { a: '{local.nope}' }))).toEqual([expect.objectContaining({ code: 'unresolved_reference' })]);
  });

  it('reports a variable set only after the block that reads it', () => {
    const flow = linearFlow([setVar('a', '{local.b}'), setVar('b', 'x'), respond]);
    const found = diagnostics(flow);
    expect(found).toEqual([expect.objectContaining({ code: 'unresolved_reference', node_id: 'n1', field: 'value' })]);
    expect(found[0].message).toContain('n2');
  });

  it('reports a variable set only on the other branch of a condition', () => {
    const flow = graphFlow(
      [
        { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } },
        { id: 'yes', ...setVar('a', 'x') },
        { id: 'no', type: 'respond', config: { body: { a: '{local.a}' } } },
        { id: 'r', ...respond },
      ],
      ['start>c', 'c:true>yes', 'c:false>no', 'yes>r'],
    );
    expect(diagnostics(flow)).toEqual([expect.objectContaining({ code: 'unresolved_reference', node_id: 'no' })]);
  });

  it('accepts a variable set on one of the paths that join', () => {
    const flow = graphFlow(
      [
        { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } },
        { id: 'yes', ...setVar('a', 'x') },
        { id: 'r', type: 'respond', config: { body: { a: '{local.a}' } } },
      ],
      ['start>c', 'c:true>yes', 'c:false>r', 'yes>r'],
    );
    expect(diagnostics(flow)).toEqual([]);
  });

  it('reports a path below a block result that can never exist', () => {
    const flow = respondingFlow([{ type: 'encode_text', config: { input: 'a', encoding: 'hex', ref: 'enc' } }, { type: 'match_regex', config: { input: 'a', pattern: '(?<word>a)', ref: 'm' } }], {
      a: '{result.enc.x}',
      b: '{result.m.nope}',
      c: '{result.m.word}',
    });
    expect(diagnostics(flow)).toEqual([
      expect.objectContaining({ code: 'unresolvable_path', field: 'body.a' }),
      expect.objectContaining({ code: 'unresolvable_path', field: 'body.b', message: expect.stringContaining('.matches, .captures, .isMatch, .word') }),
    ]);
  });

  it('reads external-request results by block name and reports unknown block names', () => {
    const call = { type: 'http_request', config: { name: 'api', url: 'https://example.com' } };
    expect(diagnostics(respondingFlow([call], { s: '{api.status}', b: '{api.body.items.0}', e: '{api.error}' }))).toEqual([]);
    expect(diagnostics(respondingFlow([call], { s: '{apx.status}' }))).toEqual([expect.objectContaining({ code: 'unknown_reference' })]);
    expect(diagnostics(respondingFlow([call], { s: '{api.headerz}' }))).toEqual([expect.objectContaining({ code: 'unresolvable_path' })]);
  });

  it('refuses patterns the linear-time engine rejects, giving its reason', () => {
    const backreference = diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: '(a)\\1', ref: 'm' } }, respond]));
    expect(backreference).toEqual([expect.objectContaining({ code: 'invalid_regex', field: 'pattern', node_id: 'n1' })]);
    expect(backreference[0].message).toContain('invalid escape sequence');
    expect(backreference[0].message).toContain('backreferences are not supported');
    const lookahead = diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: 'a(?=b)', ref: 'm' } }, respond]));
    expect(lookahead[0].message).toContain('lookahead and lookbehind are not supported');
    const unclosed = diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: '[a-', ref: 'm' } }, respond]));
    expect(unclosed[0].message).toContain('missing closing ]');
  });

  it('refuses a short pattern whose compiled program is over the cap, naming the block and the field', () => {
    const found = diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: '(?:ab|cd){0,700}z', flags: 's', ref: 'm' } }, respond]));
    expect(found).toEqual([
      {
        severity: 'error',
        code: 'regex_too_large',
        node_id: 'n1',
        field: 'pattern',
        message:
          'Match Regex (n1): Pattern is too large to run: it compiles to 4,203 instructions; the limit is 3,000 (counted repetitions such as {0,1000} multiply the size of what they repeat)',
      },
    ]);
    expect(diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: '.{0,1000}', ref: 'm' } }, respond]))).toEqual([]);
  });

  it('accepts JavaScript-style named groups', () => {
    expect(diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: '(?<year>\\d{4})-(?<month>\\d{2})', ref: 'm' } }, respond]))).toEqual([]);
  });

  it('refuses unknown regex flags', () => {
    expect(diagnostics(linearFlow([{ type: 'match_regex', config: { input: 'a', pattern: 'a', flags: 'x', ref: 'm' } }, respond]))).toEqual([
      expect.objectContaining({ code: 'invalid_field', field: 'flags' }),
    ]);
  });

  it('warns when a path can end without Respond, and still compiles', () => {
    const flow = graphFlow(
      [
        { id: 'c', type: 'condition', config: { left: '1', operator: 'eq', right: '1' } },
        { id: 'r', ...respond },
      ],
      ['start>c', 'c:true>r'],
    );
    const result = compileFlow({ flow, settings: settings() });
    expect(result.ok).toBe(true);
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'no_respond', node_id: 'c', message: expect.stringContaining('when the condition is false') })]);
  });

  it('warns about an empty flow', () => {
    expect(diagnostics(linearFlow([]))).toEqual([expect.objectContaining({ severity: 'warning', code: 'no_respond', node_id: 'start' })]);
  });

  it('does not compile a flow with an error, and Save still sees every diagnostic', () => {
    const flow = linearFlow([{ type: 'encode_text', config: { encoding: 'hex', ref: 'x' } }, setVar('y', '1')]);
    expect(compileFlow({ flow, settings: settings() })).toEqual({ ok: false, diagnostics: expect.any(Array) });
    expect(validateFlow({ flow, settings: settings() }).map((d) => d.severity)).toEqual(['error', 'warning']);
  });

  it('refuses an external-request block named like a reference root', () => {
    const found = diagnostics(linearFlow([{ type: 'http_request', config: { name: 'body', url: 'https://example.com' } }, respond]));
    expect(found).toEqual([expect.objectContaining({ code: 'invalid_field', field: 'name' })]);
  });
});

describe('flow compilation', () => {
  const flow = graphFlow(
    [
      { id: 'greet', ...setVar('greeting', 'Hello {params.name}') },
      { id: 'check', type: 'condition', config: { left: '{params.name}', operator: 'is_null' } },
      { id: 'anon', type: 'return_error', config: { status: 400, message: 'name is required' } },
      { id: 'ok', type: 'respond', config: { body: { message: '{local.greeting}' } } },
    ],
    ['start>greet', 'greet>check', 'check:true>anon', 'check:false>ok'],
  );
  const endpoint = settings({ query_params: [{ key: 'name', default: null }, { key: 'lang', default: 'en' }] });

  it('produces plain JSON that survives a JSON round trip', () => {
    const result = compileFlow({ flow, settings: endpoint });
    if (!result.ok) throw new Error('expected the flow to compile');
    expect(JSON.parse(JSON.stringify(result.compiled))).toEqual(result.compiled);
  });

  it('includes the configured query parameters with their defaults', () => {
    const result = compileFlow({ flow, settings: endpoint });
    expect(result.ok && result.compiled.query_params).toEqual([
      { key: 'name', default: null },
      { key: 'lang', default: 'en' },
    ]);
  });

  it('orders blocks so every connection points forward, with the false branch of a condition', () => {
    const result = compileFlow({ flow, settings: endpoint });
    if (!result.ok) throw new Error('expected the flow to compile');
    const { blocks, entry } = result.compiled;
    expect(blocks[entry as number].id).toBe('greet');
    blocks.forEach((block, index) => {
      for (const next of [block.next, block.next_when_false]) if (typeof next === 'number') expect(next).toBeGreaterThan(index);
    });
    const check = blocks.find((block) => block.id === 'check');
    expect(blocks[check?.next as number].id).toBe('anon');
    expect(blocks[check?.next_when_false as number].id).toBe('ok');
  });

  it('stores templates pre-parsed', () => {
    const result = compileFlow({ flow, settings: endpoint });
    if (!result.ok) throw new Error('expected the flow to compile');
    const greet = result.compiled.blocks.find((block) => block.id === 'greet');
    expect(isTemplateAst(greet?.config.value)).toBe(true);
    expect(greet?.config.value).toEqual({ kind: 'text', parts: ['Hello ', { source: 'param', name: 'name', path: [], text: 'params.name' }] });
  });
});
