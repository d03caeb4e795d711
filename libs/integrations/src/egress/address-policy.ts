import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/**
 * Which addresses a flow may reach. Only globally routable unicast is allowed by default;
 * everything ipaddr.js classifies otherwise (loopback, private, link-local incl. the
 * 169.254.169.254 metadata service, CGNAT, multicast, unspecified, broadcast, reserved,
 * documentation, unique-local, …) is refused unless an operator CIDR allows it.
 */
export class AddressPolicy {
  private readonly allowed: Cidr[];

  constructor(allowCidrs: readonly string[] = []) {
    this.allowed = allowCidrs.map(parseCidr);
  }

  /** `null` when allowed, else the reason (the range name) it is refused. */
  check(address: string): string | null {
    let parsed: Address;
    try {
      parsed = ipaddr.parse(address);
    } catch {
      return 'not an IP address';
    }
    if (this.isAllowListed(parsed)) return null;
    if (parsed.kind() === 'ipv4') return rangeVerdict(parsed as ipaddr.IPv4);
    const v6 = parsed as ipaddr.IPv6;
    const embedded = embeddedIPv4(v6);
    if (embedded) {
      // A v4 address dressed as v6 (mapped, translated, NAT64, 6to4) is judged as the v4 address.
      if (this.isAllowListed(embedded)) return null;
      return rangeVerdict(embedded);
    }
    return rangeVerdict(v6);
  }

  private isAllowListed(address: Address): boolean {
    return this.allowed.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}

function rangeVerdict(address: Address): string | null {
  const range = address.range();
  return range === 'unicast' ? null : range;
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = address.range();
  const parts = address.parts;
  const fromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return fromWords(parts[6], parts[7]);
    case 'rfc6052': // 64:ff9b::a.b.c.d (NAT64, well-known /96 and local-use /48: last 32 bits)
      return fromWords(parts[6], parts[7]);
    case '6to4': // 2002:AABB:CCDD::/48
      return fromWords(parts[1], parts[2]);
    default:
      // IPv4-compatible (deprecated) ::a.b.c.d other than :: and ::1.
      if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1)) return fromWords(parts[6], parts[7]);
      return null;
  }
}

function parseCidr(text: string): Cidr {
  const trimmed = text.trim();
  try {
    if (trimmed.includes('/')) return ipaddr.parseCIDR(trimmed);
    const address = ipaddr.parse(trimmed);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(`"${trimmed}" is not a CIDR range (e.g. 127.0.0.0/8 or fd00::/8)`);
  }
}

/** Parses a comma-separated list such as `127.0.0.0/8, ::1/128`; throws on a malformed entry. */
export function parseCidrList(text: string | undefined): string[] {
  const entries = (text ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) parseCidr(entry);
  return entries;
}
