export function EndpointsPage() {
  return (
    <section className="page">
      <h1>Endpoints</h1>
    </section>
  );
}
