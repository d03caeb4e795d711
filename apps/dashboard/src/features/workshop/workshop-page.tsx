// Placeholder until the Workshop page lands (another change replaces this file).
export function WorkshopPage() {
  return (
    <section className="page">
      <h1>Workshop</h1>
      <p className="muted">This page is being built.</p>
    </section>
  );
}
