/** What the assistant's places say when the operator has not set its key: how to enable it, not a button that cannot work. */
export function AssistantOff() {
  return (
    <div className="as-off">
      <p>The drafting assistant is not set up on this installation.</p>
      <p className="muted ws-muted">
        To enable it, the operator gives the control plane an Anthropic API key as <code>FLOWGATE_ASSISTANT_API_KEY</code> and restarts it (see the
        README, “The drafting assistant”). Everything else works without it.
      </p>
    </div>
  );
}
