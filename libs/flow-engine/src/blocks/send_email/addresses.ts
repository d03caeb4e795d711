const ADDRESS = /^[^\s<>@",]+@([^\s<>@",]+\.[^\s<>@",.]+)$/;
const NAMED = /^(?:"([^"]*)"|([^<>"]*?))\s*<\s*([^<>\s]+)\s*>$/;

export interface Mailbox {
  name: string;
  address: string;
  /** Lowercased domain of the address. */
  domain: string;
}

/** Longer than any real mailbox; refusing it early also bounds the regexes' work. */
const MAX_MAILBOX_LENGTH = 512;

/** `Display Name <addr@domain>`, `"Name, Inc." <addr@domain>` or a bare `addr@domain`. */
export function parseMailbox(text: string): Mailbox | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_MAILBOX_LENGTH) return null;
  const named = NAMED.exec(trimmed);
  const name = named ? (named[1] ?? named[2]).trim() : '';
  const address = named ? named[3] : trimmed;
  const plain = ADDRESS.exec(address);
  return plain ? { name, address, domain: plain[1].toLowerCase() } : null;
}

/** The From rule: a display name and an address whose domain the email integration verified. */
export function senderProblem(from: string, verifiedDomains: readonly string[]): string | null {
  const mailbox = parseMailbox(from);
  if (mailbox === null || mailbox.name === '') return `From must look like "Display Name <name@your-domain.com>", got "${from}"`;
  const verified = verifiedDomains.some((domain) => domain.toLowerCase().replace(/\.$/, '') === mailbox.domain);
  if (!verified) {
    const known = verifiedDomains.length > 0 ? `verified domains: ${verifiedDomains.join(', ')}` : 'no domain is verified yet';
    return `the sender domain ${mailbox.domain} is not verified with the email integration (${known})`;
  }
  return null;
}
