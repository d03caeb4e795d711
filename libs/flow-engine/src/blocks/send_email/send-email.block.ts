import { z } from 'zod';
import { BlockFailure } from '../../runtime/run-errors';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField } from '../common/fields';
import { portFailure } from '../common/port-failure';
import { judgePortCall, retryField, withRetries } from '../common/retry';
import { parseMailbox, senderProblem } from './addresses';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    to: kit.template(textSource('To')),
    from: kit.template(textSource('From')),
    subject: kit.template(textSource('Subject')),
    body: kit.template(textSource('Body')),
    retry: retryField(),
    /** Optional: the name under which an error path reads the failure (`{REF.error}`). */
    ref: refField().optional(),
  });
type SendEmailConfig = z.output<ReturnType<typeof config<'compiled'>>>;

const literalText = (ast: SendEmailConfig['from']): string | null => (ast.kind === 'literal' ? String(ast.value) : null);

export const sendEmailBlock = defineBlock<SendEmailConfig>({
  type: 'send_email',
  label: 'Send Email',
  category: 'integrations',
  description: "Queues an email through the project's email integration; skipped when none is configured.",
  config,
  flow: 'next',
  async: true,
  canFail: true,
  check: ({ to, from }, diagnostics, { context }) => {
    const sender = literalText(from);
    if (sender !== null) {
      if (parseMailbox(sender)?.name) {
        const verified = context.email_verified_domains;
        const problem = verified === undefined ? null : senderProblem(sender, verified);
        if (problem !== null) diagnostics.error('unverified_sender_domain', 'from', `${problem}.`);
      } else {
        diagnostics.error('invalid_sender', 'from', `From must look like "Display Name <name@your-domain.com>".`);
      }
    }
    const recipient = literalText(to);
    if (recipient !== null && parseMailbox(recipient) === null) diagnostics.error('invalid_recipient', 'to', `To must be an email address, got "${recipient}".`);
  },
  prepare: (config, context) => {
    const to = context.text(config.to);
    const from = context.text(config.from);
    const subject = context.text(config.subject);
    const body = context.text(config.body);
    const traced = { id: context.nodeId, type: 'send_email', label: context.label };
    return async (run) => {
      const email = run.ports.email;
      if (!email) return run.skip('integration_not_configured');
      const message = { to: to(run).trim(), from: from(run).trim(), subject: subject(run), body: body(run) };
      if (parseMailbox(message.to) === null) throw new BlockFailure(`To must be an email address, got "${message.to}"`);
      const problem = senderProblem(message.from, email.verifiedDomains);
      if (problem !== null) throw new BlockFailure(problem);
      // A test run shows the message instead of sending it (after the same checks a live run makes).
      if (email.dryRun === true) return run.skip('dry_run', message);
      try {
        await withRetries(run, config.retry, traced, () => email.enqueue(message, run.signal), judgePortCall);
      } catch (error) {
        throw portFailure(run, error, 'queueing the email');
      }
    };
  },
});
