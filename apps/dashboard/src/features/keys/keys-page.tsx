export function KeysPage() {
  return (
    <section className="page">
      <h1>Authentication</h1>
    </section>
  );
}
