import type { DataTableShape } from '@flowgate/contracts';
import { blockCatalogue, type CallableFunction } from '@flowgate/flow-engine';

/** What the model is told of the project. Secret values never come here: only names. */
export interface ProjectFacts {
  tables: readonly DataTableShape[];
  functions: readonly CallableFunction[];
  secretNames: readonly string[];
  textGeneration: boolean;
  emailDomains: readonly string[];
  /** With `endpoint_id`: that endpoint's saved draft (settings and flow), secret values masked. */
  endpoint: { settings: Record<string, unknown>; flow: unknown } | null;
}

const GUIDE = `You draft endpoints for Flowgate, a visual API builder. An endpoint is settings (name, method, path, authentication, query parameters) and a flow: blocks (nodes) joined by edges, run from the one Start block when a request arrives. Answer only by calling the propose_endpoint tool with the complete endpoint.

How flows work:
- Exactly one Start block (config {}); every other block must be reachable from it. Edges go from a block to the next one; a Condition has two edges (sourceHandle "true" and "false"), a For Each has "each" (the loop body) and "done"; a block that can fail may have an "error" edge. Respond, Return Error and Stream Text end the flow and have no outgoing edge. Every path should end with Respond (or Return Error).
- Text fields are templates. A reference is {root.path} without spaces: {params.KEY} (a configured query parameter only), {body.FIELD} (POST/PUT/PATCH only), {request.headers.NAME}, {local.NAME} (what Set Variable or a block's ref wrote earlier on the path), {NAME.status} / {NAME.body} (a Send External Request named NAME), {secrets.NAME} (a project secret), {current_time}, {current_date}, {uuid}. A value that is exactly one reference keeps its JSON type.
- Give blocks short ids ("n1", "n2", …) and positions about 240 px apart, left to right (branches 160 px apart vertically).
- Use only the project's tables, columns, functions and secret names listed below; if the request needs one that does not exist, say in the explanation what the person must create.
- If Flowgate answers with problems, fix them and call the tool again with the whole corrected endpoint.`;

const list = (items: readonly string[], none: string) => (items.length === 0 ? none : items.map((item) => `- ${item}`).join('\n'));

/** The system prompt: the guide, the blocks of the catalogue, and the project's facts. */
export function systemPrompt(facts: ProjectFacts): string {
  const blocks = blockCatalogue
    .filter((entry) => !entry.usableIn || entry.usableIn.includes('endpoint'))
    .map((entry) => `${entry.label} (\`${entry.type}\`, ${entry.category}): ${entry.description}`);
  const tables = facts.tables.map((table) => `${table.name}: ${table.columns.map((column) => `${column.name} (${column.type})`).join(', ') || 'no columns'} (every row also has id, created_at, updated_at)`);
  const functions = facts.functions.map(
    (fn) =>
      `${fn.name}${fn.live ? '' : ' (not deployed: Call Function cannot use it until it is)'}: inputs ${fn.inputs.map((input) => `${input.name} (${input.type}${input.required ? ', required' : ''})`).join(', ') || 'none'}`,
  );
  const sections = [
    GUIDE,
    `## Blocks\n${list(blocks, '')}`,
    `## The project's data tables\n${list(tables, 'None.')}`,
    `## The project's functions\n${list(functions, 'None.')}`,
    `## The project's secrets (names only; read one as {secrets.NAME})\n${list(facts.secretNames, 'None.')}`,
    `## Integrations\n- Text generation (Generate Text, Stream Text): ${facts.textGeneration ? 'set up' : 'not set up (Generate Text is skipped, Stream Text is refused at Deploy)'}\n- Email (Send Email): ${facts.emailDomains.length > 0 ? `senders at ${facts.emailDomains.join(', ')}` : 'not set up'}`,
  ];
  if (facts.endpoint) {
    sections.push(
      `## The endpoint being edited\nStart from its saved draft below and change what the request asks; keep what it does not mention.\n\`\`\`json\n${JSON.stringify(facts.endpoint)}\n\`\`\``,
    );
  }
  return sections.join('\n\n');
}
