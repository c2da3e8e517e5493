import { BlockList, isIP } from 'node:net';

/** Addresses that are not the public internet: refused unless the allowlist names them. */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is. */
function unmapped(ip: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return match ? match[1]! : ip;
}

export function isPublicAddress(ip: string): boolean {
  const address = unmapped(ip);
  return !NON_PUBLIC.check(address, family(address));
}

/**
 * DATASPACE_FETCH_ALLOW as a decision: may this host be asked, and may it be reached at this address?
 * Both are checked on every hop, the address after DNS resolution, so a name that resolves to a
 * private address (or a redirect to one) is refused like the address itself.
 */
export class HostPolicy {
  private readonly anyPublic: boolean;
  private readonly names: string[] = [];
  private readonly suffixes: string[] = [];
  private readonly ranges = new BlockList();

  constructor(entries: string[]) {
    this.anyPublic = entries.includes('*');
    for (const entry of entries) {
      if (entry === '*') continue;
      const [net = '', prefix] = entry.split('/');
      if (isIP(net)) this.ranges.addSubnet(net, prefix === undefined ? (isIP(net) === 6 ? 128 : 32) : Number(prefix), family(net));
      else if (entry.startsWith('*.')) this.suffixes.push(entry.slice(1));
      else this.names.push(entry);
    }
  }

  private listedName(host: string): boolean {
    return this.names.includes(host) || this.suffixes.some((s) => host.endsWith(s));
  }

  private listedAddress(ip: string): boolean {
    const address = unmapped(ip);
    return this.ranges.check(address, family(address));
  }

  /** Why `host` may not be asked at all, or undefined. */
  refuseHost(hostname: string): string | undefined {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      if (this.listedAddress(host)) return undefined;
      if (!isPublicAddress(host)) return `${host} is not a public address and is not listed in DATASPACE_FETCH_ALLOW`;
      return this.anyPublic ? undefined : `${host} is not listed in DATASPACE_FETCH_ALLOW`;
    }
    if (this.anyPublic || this.listedName(host)) return undefined;
    return `${host} is not listed in DATASPACE_FETCH_ALLOW`;
  }

  /** Why `host` may not be reached at the address it resolved to, or undefined. */
  refuseAddress(hostname: string, ip: string): string | undefined {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (isPublicAddress(ip) || this.listedAddress(ip) || this.listedName(host)) return undefined;
    // The address is not repeated: what an internal name resolves to is itself worth hiding (issue 13).
    return `${host} resolves to an address that is not public; list the host in DATASPACE_FETCH_ALLOW to allow it`;
  }
}

/**
 * The error for a DNS answer that holds no address (the resolver normally says ENOTFOUND itself): a
 * fetch or a delivery to that host fails as for an unknown host.
 */
export function noAddress(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}
