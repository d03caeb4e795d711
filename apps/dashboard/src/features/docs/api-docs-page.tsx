// Placeholder until the API docs page lands (another change replaces this file).
export function ApiDocsPage() {
  return (
    <section className="page">
      <h1>API docs</h1>
      <p className="muted">This page is being built.</p>
    </section>
  );
}
