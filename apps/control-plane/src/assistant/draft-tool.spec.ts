import { blockCatalogue } from '@flowgate/flow-engine';
import { DRAFT_TOOL_NAME, draftTool } from './draft-tool';

const EDITOR_TAGS = ['template', 'referenceName', 'shownWhen', 'optionTitles', 'itemTitle', 'dataTable', 'code'];

/** Every key of every object in the schema, with the path of the keys above it. */
function keysOf(value: unknown, path: string[] = [], into: Array<{ key: string; under: string | undefined }> = []) {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, path, into));
  else if (typeof value === 'object' && value !== null)
    for (const [key, inner] of Object.entries(value)) {
      into.push({ key, under: path.at(-1) });
      keysOf(inner, [...path, key], into);
    }
  return into;
}

describe('the draft tool', () => {
  const tool = draftTool();
  const text = JSON.stringify(tool.input_schema);

  it('is one tool whose input is the explanation, the settings and the flow', () => {
    expect(tool.name).toBe(DRAFT_TOOL_NAME);
    expect(tool.input_schema).toMatchObject({ type: 'object', required: ['explanation', 'settings', 'flow'] });
  });

  it('holds every block usable in an endpoint, from the catalogue', () => {
    for (const entry of blockCatalogue.filter((block) => !block.usableIn || block.usableIn.includes('endpoint'))) {
      expect(text).toContain(`"const":"${entry.type}"`);
      expect(text).toContain(JSON.stringify(`${entry.label}: ${entry.description}`));
    }
    expect(text).not.toContain('"const":"return_value"');
  });

  it('keeps only JSON Schema words (the editor’s tags go; a template field says what it takes)', () => {
    const tags = keysOf(tool.input_schema).filter(({ key, under }) => EDITOR_TAGS.includes(key) && under !== 'properties');
    expect(tags).toEqual([]);
    expect(text).toContain('A template: {references} such as {params.name}');
  });
});
