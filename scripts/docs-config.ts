/**
 * `npm run docs:config`: writes every configuration table of the README and docs/ from the apps'
 * zod config schemas (name, default, `.describe()` text), between markers in the Markdown:
 *
 *   <!-- config-table: gateway only=GATEWAY_ -->
 *   …generated…
 *   <!-- /config-table -->
 *
 * The source is an app (its variables, in its schema's order), `integrations`, or `apps` (every
 * app's variables once, with the apps that read each: the README's table). `only=` keeps the
 * names listed, a name ending in `_` standing for every name that starts with it. A variable
 * added to a schema appears in every table whose source and filter take it; one without a
 * description stops the generator. test/contracts/config-tables.spec.ts fails while a table is
 * stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { controlPlaneConfigSchema } from '../apps/control-plane/src/config/control-plane.config';
import { gatewayConfigSchema } from '../apps/gateway/src/config';
import { logIngestConfigSchema } from '../apps/log-ingest/src/config';
import { workerConfigSchema } from '../apps/worker/src/config';
import { emailQueueConfigSchema } from '../apps/worker/src/queues/email';
import { retentionConfigSchema } from '../apps/worker/src/queues/retention';
import { schedulesConfigSchema } from '../apps/worker/src/queues/schedules';
import { integrationsConfigSchema } from '../libs/integrations/src/integrations.config';
import { documentedVariables, type DocumentedVariable } from '../libs/platform/src/config-docs';

const root = join(__dirname, '..');

/** The Markdown files that hold configuration tables. */
export const CONFIG_DOC_FILES = [
  'README.md',
  'docs/control-plane.md',
  'docs/gateway.md',
  'docs/log-pipeline.md',
  'docs/integrations.md',
  'docs/data-tables.md',
];

/** What each app validates at boot (its own schema and those of the libraries it loads). */
const APPS = {
  'control-plane': [controlPlaneConfigSchema, integrationsConfigSchema],
  gateway: [gatewayConfigSchema, integrationsConfigSchema],
  'log-ingest': [logIngestConfigSchema],
  worker: [workerConfigSchema, retentionConfigSchema, emailQueueConfigSchema, schedulesConfigSchema, integrationsConfigSchema],
};
const SOURCES: Record<string, readonly Parameters<typeof documentedVariables>[0][]> = { ...APPS, integrations: [integrationsConfigSchema] };

interface Variable extends DocumentedVariable {
  description: string;
  usedBy: string[];
}

/** Each variable once; the same variable read by several schemas must be documented alike. */
function variablesOf(sources: string[]): Variable[] {
  const byName = new Map<string, Variable>();
  for (const source of sources) {
    const schemas = SOURCES[source];
    if (!schemas) throw new Error(`config-table: unknown source "${source}" (one of ${Object.keys(SOURCES).join(', ')}, apps)`);
    for (const variable of schemas.flatMap((schema) => documentedVariables(schema))) {
      if (variable.description === undefined) throw new Error(`${variable.name} (${source}): give it a .describe('…') text`);
      const known = byName.get(variable.name);
      if (!known) {
        byName.set(variable.name, { ...variable, description: variable.description, usedBy: [source] });
        continue;
      }
      if (known.description !== variable.description || known.defaultText !== variable.defaultText) {
        throw new Error(`${variable.name} is documented differently in ${known.usedBy[0]} and ${source}: one description and default for one variable`);
      }
      if (!known.usedBy.includes(source)) known.usedBy.push(source);
    }
  }
  return [...byName.values()];
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function table(spec: string): string {
  const [source, ...options] = spec.trim().split(/\s+/);
  const only = options.find((option) => option.startsWith('only='))?.slice('only='.length).split(',');
  const keep = (name: string) => !only || only.some((item) => (item.endsWith('_') ? name.startsWith(item) : name === item));
  const all = source === 'apps';
  const variables = variablesOf(all ? Object.keys(APPS) : [source]).filter((variable) => keep(variable.name));
  const header = all ? ['| variable | default | used by | meaning |', '|---|---|---|---|'] : ['| variable | default | meaning |', '|---|---|---|'];
  const rows = variables.map((v) =>
    all
      ? `| \`${v.name}\` | ${cell(v.defaultText)} | ${v.usedBy.join(', ')} | ${cell(v.description)} |`
      : `| \`${v.name}\` | ${cell(v.defaultText)} | ${cell(v.description)} |`,
  );
  return [...header, ...rows].join('\n');
}

/** An opening marker, whatever it holds up to the next marker, and the closing one. */
const MARKED = /(<!-- config-table: ([^>]*?) -->)(?:(?!<!-- \/?config-table)[\s\S])*(<!-- \/config-table -->)/g;

/** The file's text with every marked table generated anew. */
export function withConfigTables(markdown: string): string {
  return markdown.replace(MARKED, (_whole, open: string, spec: string, close: string) => `${open}\n${table(spec)}\n${close}`);
}

/** Each file's text as it is and as the schemas say it should be. */
export function configDocs(): { file: string; actual: string; expected: string }[] {
  return CONFIG_DOC_FILES.map((file) => {
    const actual = readFileSync(join(root, file), 'utf8');
    return { file, actual, expected: withConfigTables(actual) };
  });
}

// Run as a script (scripts/run-ts.js puts the entry's path in argv[1]); imported by the test, it writes nothing.
if (process.argv[1] === __filename) {
  for (const { file, actual, expected } of configDocs()) {
    if (actual === expected) continue;
    writeFileSync(join(root, file), expected);
    process.stdout.write(`${file}: configuration tables written\n`);
  }
}
