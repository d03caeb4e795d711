import { request, respondBody, respondingFlow } from '../../testing/flow-fixtures';

const manipulate = (config: Record<string, string>, input = '{body.text}') =>
  respondingFlow([{ type: 'manipulate_text', config: { input, ref: 'out', ...config } }], { out: '{result.out}' });
const run = async (config: Record<string, string>, text: string) =>
  ((await respondBody(manipulate(config), { request: request({ body: { text } }) })) as { out: unknown }).out;

describe('Manipulate Text block', () => {
  it('converts to uppercase and lowercase', async () => {
    await expect(run({ operation: 'uppercase' }, 'Straße ok')).resolves.toBe('STRASSE OK');
    await expect(run({ operation: 'lowercase' }, 'ÀBC')).resolves.toBe('àbc');
  });

  it('removes every space, including leading, trailing and inner ones', async () => {
    await expect(run({ operation: 'trim_spaces' }, '  a b\tc \n d  ')).resolves.toBe('abcd');
  });

  it('replaces every occurrence of plain text', async () => {
    await expect(run({ operation: 'replace', find: '.', replacement: '-' }, 'a.b.c')).resolves.toBe('a-b-c');
  });

  it('treats $ patterns in the replacement as plain text', async () => {
    await expect(run({ operation: 'replace', find: 'x', replacement: "$&$'" }, 'axb')).resolves.toBe("a$&$'b");
  });

  it('leaves the text unchanged when Find is empty', async () => {
    await expect(run({ operation: 'replace', find: '', replacement: '-' }, 'abc')).resolves.toBe('abc');
  });

  it('splits into a list at the delimiter', async () => {
    await expect(run({ operation: 'split', delimiter: ',' }, 'a,b,,c')).resolves.toEqual(['a', 'b', '', 'c']);
  });

  it('splits into characters with an empty delimiter, keeping emoji whole', async () => {
    await expect(run({ operation: 'split', delimiter: '' }, 'a😀b')).resolves.toEqual(['a', '😀', 'b']);
  });

  it('makes list items of a split readable by index', async () => {
    const flow = respondingFlow([{ type: 'manipulate_text', config: { input: 'x-y-z', operation: 'split', delimiter: '-', ref: 'parts' } }], { second: '{result.parts.1}' });
    await expect(respondBody(flow)).resolves.toEqual({ second: 'y' });
  });

  it('appends text, with references in it', async () => {
    await expect(respondBody(manipulate({ operation: 'concatenate', append: ' and {body.more}' }), { request: request({ body: { text: 'this', more: 'that' } }) })).resolves.toEqual({ out: 'this and that' });
  });

  it('reads a missing input as empty text', async () => {
    await expect(respondBody(manipulate({ operation: 'uppercase' }), { request: request({ body: {} }) })).resolves.toEqual({ out: '' });
  });
});
