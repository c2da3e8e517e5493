import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { noAddress, type HostPolicy } from '../documents/host-policy.js';

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the node stops: the attempt then counts for nothing and stays pending. */
  stop: AbortSignal;
  /**
   * The host policy a registered endpoint must pass, checked on the host named and on every address
   * the connection is made to (DNS answers can change after registration). Absent for the seed's URLs,
   * which the operator wrote.
   */
  policy?: HostPolicy;
}

export type SendResult =
  | { kind: 'delivered'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; status?: number; error: string }
  | { kind: 'stopped' };

/** Told on the deliveries list: names neither the address the host resolved to nor anything it said. */
export const NOT_ALLOWED = 'the notification URL does not lead to a public host, so nothing was sent (DATASPACE_NOTIFY_ALLOW widens this)';

class Refused extends Error {}

/** A DNS lookup that refuses the connection when any answer is an address the policy does not allow. */
export function guardedLookup(policy: HostPolicy, hostname: string): LookupFunction {
  return (name, options, callback) => {
    dnsLookup(name, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      if (list.some((a) => policy.refuseAddress(hostname, a.address))) return callback(new Refused(NOT_ALLOWED), '', 0);
      const [first] = list;
      if (first === undefined) return callback(noAddress(name), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * One POST of a signal. 2xx is delivered, 410 means the receiver wants no more of it, anything else
 * (other statuses, redirects, which are not followed, timeouts, refused connections) is retried.
 * node:http rather than fetch: its `lookup` hook is where the address actually connected to is checked.
 */
export async function sendSignal(request: SendRequest): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { kind: 'retry', error: 'the notification URL is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'retry', error: 'the notification URL is not http(s)' };
  if (request.policy?.refuseHost(url.hostname)) return { kind: 'retry', error: NOT_ALLOWED };
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = AbortSignal.any([request.stop, timeout]);
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const body = Buffer.from(request.body, 'utf8');
      const req = client.request(
        url,
        {
          method: 'POST',
          signal,
          ...(request.policy ? { lookup: guardedLookup(request.policy, url.hostname) } : {}),
          headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...request.headers },
        },
        (res) => {
          // The answer's body means nothing to us; release the connection without keeping it.
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    if (status >= 200 && status < 300) return { kind: 'delivered', status };
    if (status === 410) return { kind: 'gone', status };
    return { kind: 'retry', status, error: `receiver answered ${status}` };
  } catch (error) {
    if (request.stop.aborted) return { kind: 'stopped' };
    if (timeout.aborted) return { kind: 'retry', error: `no answer within ${request.timeoutMs} ms` };
    if (error instanceof Refused) return { kind: 'retry', error: NOT_ALLOWED };
    const e = error as NodeJS.ErrnoException;
    // A code says what went wrong without repeating what a resolver or server answered.
    return { kind: 'retry', error: e.code ?? 'the connection failed' };
  }
}
