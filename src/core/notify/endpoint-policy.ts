import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostPolicy } from '../documents/host-policy.js';

/**
 * Why a notification URL registered over the API is refused, or undefined. The host is checked by
 * name and, when it resolves now, by every address it resolves to; delivery checks again on the
 * address it connects to, since DNS answers change. A name that does not resolve yet is accepted:
 * delivery then retries until it does. The message never repeats what DNS answered.
 */
const LOOKUP_TIMEOUT_MS = 2000;

export async function destinationRefusal(policy: HostPolicy, url: URL): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const hint = 'signals go to public hosts only unless the operator lists the host in DATASPACE_NOTIFY_ALLOW';
  if (policy.refuseHost(host)) return `url names a host that is not allowed: ${hint}`;
  if (isIP(host)) return undefined;
  let addresses: { address: string }[];
  try {
    // A resolver that does not answer must not hold the request: delivery checks again anyway.
    addresses = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error('DNS timeout')), LOOKUP_TIMEOUT_MS).unref()),
    ]);
  } catch {
    return undefined;
  }
  if (addresses.some((a) => policy.refuseAddress(host, a.address)))
    return `url names a host that resolves to a non-public address: ${hint}`;
  return undefined;
}
