// Placeholder until the Logs page lands (another change replaces this file).
export function LogsPage() {
  return (
    <section className="page">
      <h1>Logs</h1>
      <p className="muted">This page is being built.</p>
    </section>
  );
}
