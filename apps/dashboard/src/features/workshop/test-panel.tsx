/** The `Test` panel's place; test runs (DASHBOARD.md "Test runs") are built in their own change. */
export function TestPanel({ onClose }: { onClose(): void }) {
  return (
    <section className="ws-test" aria-label="Test">
      <h2 className="ws-panel-title">Test</h2>
      <p className="ws-muted">Test runs are not available in this version yet. Deploy the endpoint and call its live URL to try it.</p>
      <button type="button" className="ws-button" onClick={onClose}>
        Done
      </button>
    </section>
  );
}
