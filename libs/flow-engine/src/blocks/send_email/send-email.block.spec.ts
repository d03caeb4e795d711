import type { EmailMessage, EmailPort } from '../../ports';
import { diagnostics, linearFlow, request, respondBody, respondingFlow, runFlow, settings } from '../../testing/flow-fixtures';

function fakeEmail(verifiedDomains: string[] = ['example.com']): EmailPort & { sent: EmailMessage[] } {
  const sent: EmailMessage[] = [];
  return { verifiedDomains, sent, enqueue: async (message) => void sent.push(message) };
}

const email = (config: Record<string, unknown> = {}) => ({
  id: 'mail',
  type: 'send_email',
  config: { to: '{body.email}', from: 'Acme Support <support@example.com>', subject: 'Hi {body.name}', body: 'Welcome, {body.name}!', ...config } as never,
});
const customer = request({ body: { email: 'ada@client.org', name: 'Ada' } });

describe('Send Email block', () => {
  it('queues the templated message through the email port', async () => {
    const port = fakeEmail();
    await expect(respondBody(respondingFlow([email()], { ok: true }), { ports: { email: port }, request: customer })).resolves.toEqual({ ok: true });
    expect(port.sent).toEqual([{ to: 'ada@client.org', from: 'Acme Support <support@example.com>', subject: 'Hi Ada', body: 'Welcome, Ada!' }]);
  });

  it('is skipped when the project has no email integration', async () => {
    await expect(runFlow(respondingFlow([email()], { ok: true }), { request: customer })).resolves.toEqual({ type: 'response', status: 200, body: { ok: true } });
  });

  it('refuses at deploy a From without a display name', () => {
    expect(diagnostics(linearFlow([email({ from: 'support@example.com' })]))).toContainEqual(expect.objectContaining({ code: 'invalid_sender', field: 'from', node_id: 'mail' }));
  });

  it('refuses at deploy a static From whose domain is not verified, when the verified domains are known', () => {
    const found = diagnostics(linearFlow([email({ from: 'Acme <hello@acme.io>' })]), { context: { email_verified_domains: ['example.com'] } });
    expect(found).toContainEqual(expect.objectContaining({ code: 'unverified_sender_domain', field: 'from', message: expect.stringContaining('acme.io is not verified') }));
    expect(diagnostics(linearFlow([email()]), { context: { email_verified_domains: ['EXAMPLE.com'] } }).filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('fails the flow at run time when a From built from a variable uses an unverified domain', async () => {
    const endpoint = settings({ query_params: [{ key: 'from', default: null }] });
    const result = await runFlow(respondingFlow([email({ from: 'Shop <{params.from}>' })], {}), {
      ports: { email: fakeEmail() },
      settings: endpoint,
      request: request({ body: { email: 'ada@client.org' }, query: 'from=bob@evil.test' }),
    });
    expect(result).toMatchObject({ type: 'error', status: 500, code: 'flow_error', node_id: 'mail' });
    expect(result.type === 'error' && result.message).toMatch(/^Send Email \(mail\): the sender domain evil\.test is not verified/);
  });

  it('fails the flow at run time when To is not an email address', async () => {
    const result = await runFlow(respondingFlow([email()], {}), { ports: { email: fakeEmail() }, request: request({ body: { email: 'not-an-address' } }) });
    expect(result).toMatchObject({ type: 'error', message: 'Send Email (mail): To must be an email address, got "not-an-address"' });
  });

  it('accepts a quoted display name', async () => {
    const port = fakeEmail();
    await respondBody(respondingFlow([email({ from: '"Acme, Inc." <news@example.com>' })], {}), { ports: { email: port }, request: customer });
    expect(port.sent).toHaveLength(1);
  });
});
