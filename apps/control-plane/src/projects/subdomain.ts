import { z } from 'zod';

/** Names the platform keeps for itself or that users would mistake for it. */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'admin', 'api', 'www', 'app', 'dashboard', 'docs', 'status', 'mail', 'static',
  'assets', 'auth', 'billing', 'blog', 'cdn', 'console', 'control', 'dev', 'email', 'ftp',
  'gateway', 'help', 'imap', 'internal', 'localhost', 'login', 'metrics', 'ns1', 'ns2',
  'pop', 'root', 'smtp', 'staging', 'support', 'system', 'test', 'webmail', 'flowgate',
]);

/**
 * A DNS label of 3–63 characters: lowercase letters, digits and hyphens, starting with a letter,
 * not ending with a hyphen, no `xx--` prefix (reserved for IDNs), not a reserved name. Input is
 * trimmed and lowercased first (host names are case-insensitive).
 */
export const subdomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z
      .string()
      .min(3, 'must be at least 3 characters')
      .max(63, 'must be at most 63 characters')
      .regex(/^[a-z][a-z0-9-]*$/, 'must start with a letter and contain only lowercase letters, digits and hyphens')
      .refine((value) => !value.endsWith('-'), 'must not end with a hyphen')
      .refine((value) => value.slice(2, 4) !== '--', 'must not have hyphens in the third and fourth positions')
      .refine((value) => !RESERVED_SUBDOMAINS.has(value), 'is reserved'),
  );
