/** Bound on the Host header → subdomain memo (arbitrary Host headers must not grow memory). */
const MAX_MEMO = 10_000;

/**
 * Host header → subdomain under `GATEWAY_DOMAIN`: port stripped, case-insensitive, a trailing
 * dot allowed; exactly one label before the domain. Results are memoised per header value.
 */
export class HostResolver {
  private readonly suffix: string;
  private readonly memo = new Map<string, string | null>();

  constructor(domain: string) {
    this.suffix = `.${domain.toLowerCase()}`;
  }

  subdomainOf(host: string | undefined): string | null {
    if (host === undefined) return null;
    const known = this.memo.get(host);
    if (known !== undefined) return known;
    const subdomain = this.parse(host);
    if (this.memo.size >= MAX_MEMO) this.memo.clear();
    this.memo.set(host, subdomain);
    return subdomain;
  }

  private parse(host: string): string | null {
    if (host.length === 0 || host.length > 300 || host.charCodeAt(0) === 91 /* [ IPv6 literal */) return null;
    const colon = host.lastIndexOf(':');
    let name = (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
    if (name.endsWith('.')) name = name.slice(0, -1);
    if (!name.endsWith(this.suffix)) return null;
    const subdomain = name.slice(0, name.length - this.suffix.length);
    if (subdomain.length === 0 || subdomain.includes('.')) return null;
    return subdomain;
  }
}
