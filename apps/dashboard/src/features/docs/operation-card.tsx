import { CopySnippet } from './copy-snippet';
import { schemaText, type KeyNeeded, type OperationView } from './operations';
import { curlSnippet, fetchSnippet } from './snippets';

const KEY_TEXT: Record<KeyNeeded, string> = {
  none: 'Public: no key needed',
  any: 'Needs an API key of the project (user or admin)',
  admin: 'Needs an admin API key',
};

/** One live endpoint: how to call it, what it reads, what it answers. */
export function OperationCard({ op }: { op: OperationView }) {
  const titleId = `op-${op.id}`;
  const bodyFields = Object.entries(op.body?.properties ?? {});
  const requiredFields = new Set(op.body?.required ?? []);
  return (
    <article className="card operation" aria-labelledby={titleId}>
      <header className="operation-header">
        <span className={`method method-${op.method.toLowerCase()}`}>{op.method}</span>
        <h2 id={titleId}>{op.summary || op.path}</h2>
        <span className={op.key === 'none' ? 'badge' : 'badge changed'}>{KEY_TEXT[op.key]}</span>
      </header>
      <p className="operation-url">
        <code>{op.url}</code>
      </p>
      {op.parameters.length > 0 && (
        <section aria-label="Query parameters">
          <h3>Query parameters</h3>
          <ul className="fields">
            {op.parameters.map((parameter) => (
              <li key={parameter.name}>
                <code>{parameter.name}</code> <span className="muted">{parameter.type}</span>{' '}
                <span className="muted">{parameter.required ? 'required' : parameter.default === null ? 'optional, no default (null)' : `optional, default "${parameter.default}"`}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {op.body && (
        <section aria-label="Body fields">
          <h3>Body fields</h3>
          {bodyFields.length === 0 ? (
            <p className="muted">The flow reads no body field.</p>
          ) : (
            <ul className="fields">
              {bodyFields.map(([name, schema]) => (
                <li key={name}>
                  <code>{name}</code> <span className="muted">{schemaText(schema)}</span>
                  {op.bodyChecked && <span className="muted"> {requiredFields.has(name) ? 'required' : 'optional'}</span>}
                </li>
              ))}
            </ul>
          )}
          <p className="muted">
            {op.bodyChecked
              ? 'JSON or form data, checked against the endpoint’s schema: a body that does not match is refused (400 validation_failed).'
              : 'JSON or form data; a field the request leaves out is null to the flow.'}
          </p>
        </section>
      )}
      <section aria-label="Responses">
        <h3>Responses</h3>
        <ul className="responses">
          {op.responses.map((response) => (
            <li key={response.status}>
              <strong className={Number(response.status) < 400 ? 'status-ok' : 'status-error'}>{response.status}</strong>{' '}
              <span>{response.description}</span>
              {response.schema && <code className="schema">{schemaText(response.schema)}</code>}
            </li>
          ))}
        </ul>
      </section>
      <div className="snippets">
        <CopySnippet label="curl" code={curlSnippet(op)} />
        <CopySnippet label="fetch" code={fetchSnippet(op)} />
      </div>
    </article>
  );
}
