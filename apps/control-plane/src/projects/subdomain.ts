import { PREVIEW_SUFFIX } from '@flowgate/contracts';
import { z } from 'zod';

/** Names the platform keeps for itself or that users would mistake for it. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'admin', 'api', 'www', 'app', 'dashboard', 'docs', 'status', 'mail', 'static',
  'assets', 'auth', 'billing', 'blog', 'cdn', 'console', 'control', 'dev', 'email', 'ftp',
  'gateway', 'help', 'imap', 'internal', 'localhost', 'login', 'metrics', 'ns1', 'ns2',
  'pop', 'root', 'smtp', 'staging', 'support', 'system', 'test', 'webmail', 'flowgate',
]);

/** `{subdomain}--preview` must stay one DNS label (63 characters at most). */
export const MAX_SUBDOMAIN_LENGTH = 63 - PREVIEW_SUFFIX.length;
const NO_DOUBLE_HYPHEN = 'must not contain two hyphens in a row (-- marks the preview address, {subdomain}--preview)';

const labelRules = (max: number) =>
  z
    .string()
    .min(3, 'must be at least 3 characters')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[a-z][a-z0-9-]*$/, 'must start with a letter and contain only lowercase letters, digits and hyphens')
    .refine((value) => !value.endsWith('-'), 'must not end with a hyphen')
    .refine((value) => value.slice(2, 4) !== '--', 'must not have hyphens in the third and fourth positions')
    .refine((value) => !RESERVED_SUBDOMAINS.has(value), 'is reserved');

const trimmedLowercase = z.string().trim().toLowerCase();

/**
 * A new subdomain: a DNS label of 3–54 characters (so that `{subdomain}--preview` is one too):
 * lowercase letters, digits and hyphens, starting with a letter, not ending with a hyphen, no
 * `--` anywhere (reserved for the preview address, and `xx--` for IDNs), not a reserved name.
 * Input is trimmed and lowercased first (host names are case-insensitive).
 */
export const subdomainSchema = trimmedLowercase.pipe(labelRules(MAX_SUBDOMAIN_LENGTH).refine((value) => value.slice(2, 4) === '--' || !value.includes('--'), NO_DOUBLE_HYPHEN));

/**
 * A subdomain a project may keep: the rules from before the preview address (up to 63
 * characters, `--` allowed after the fourth position). A PATCH that repeats the project's own
 * subdomain passes; a change must meet `subdomainSchema` (docs/secrets-and-preview.md).
 */
export const keptSubdomainSchema = trimmedLowercase.pipe(labelRules(63));
