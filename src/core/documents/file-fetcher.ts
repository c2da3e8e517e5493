import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FetchConfig } from './fetch-config.js';
import { HostPolicy, noAddress } from './host-policy.js';

export interface FetchedFile {
  ok: true;
  bytes: Buffer;
  /** Media type without parameters, as the server or the data: URL declared it (undefined when none). */
  mediaType: string | undefined;
}

export interface FetchFailure {
  ok: false;
  reason: string;
}

export type FetchResult = FetchedFile | FetchFailure;

class Refused extends Error {}

/** The server closed a kept-alive connection as the request was written on it. */
class StaleSocket extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

/** A data: URL (RFC 2397) decoded, within the size limit. */
function decodeDataUrl(uri: string, maxBytes: number): FetchResult {
  const comma = uri.indexOf(',');
  if (comma < 0) return { ok: false, reason: 'The data: URL has no comma before its data' };
  const header = uri.slice('data:'.length, comma);
  const params = header.split(';');
  const base64 = params.at(-1)?.toLowerCase() === 'base64';
  const mediaType = params[0]?.trim().toLowerCase() || undefined;
  const data = uri.slice(comma + 1);
  // A byte takes at most 3 characters (%XX), so longer text cannot fit: refuse before decoding it.
  if (data.length > maxBytes * 3) {
    return { ok: false, reason: `The file is larger than ${maxBytes} bytes (DATASPACE_FETCH_MAX_BYTES)` };
  }
  let bytes: Buffer;
  try {
    bytes = base64 ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data), 'utf8');
  } catch {
    return { ok: false, reason: 'The data: URL is not validly encoded' };
  }
  if (bytes.length > maxBytes) return { ok: false, reason: `The file is larger than ${maxBytes} bytes (DATASPACE_FETCH_MAX_BYTES)` };
  return { ok: true, bytes, mediaType: mediaType ?? 'text/plain' };
}

/**
 * Fetches the file a Document's uRIId names: data:, http: and https: only, within a size limit and a
 * time limit for the whole exchange, following redirects itself so each hop is checked against
 * DATASPACE_FETCH_ALLOW: the host by name, then every address it resolves to, at connection time.
 */
export class FileFetcher {
  private readonly policy: HostPolicy;

  constructor(private readonly config: FetchConfig) {
    this.policy = new HostPolicy(config.allow);
  }

  async fetch(uri: string): Promise<FetchResult> {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return { ok: false, reason: `uRIId is not a URL: ${uri}` };
    }
    if (url.protocol === 'data:') return decodeDataUrl(uri, this.config.maxBytes);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        const answer = await this.get(url, controller.signal).catch((error: unknown) => {
          // A kept-alive socket the server closed just as it was reused: a GET may be asked again, so it
          // is, once, on a new connection (Node's documented answer to this race).
          if (error instanceof StaleSocket) return this.get(url, controller.signal, true);
          throw error;
        });
        if ('location' in answer) {
          if (hop >= this.config.maxRedirects)
            return { ok: false, reason: `More than ${this.config.maxRedirects} redirects (DATASPACE_FETCH_MAX_REDIRECTS)` };
          url = new URL(answer.location, url);
          continue;
        }
        return answer;
      }
    } catch (error) {
      if (controller.signal.aborted)
        return { ok: false, reason: `No complete answer from ${url.host} within ${this.config.timeoutMs} ms (DATASPACE_FETCH_TIMEOUT_MS)` };
      if (error instanceof Refused) return { ok: false, reason: error.message };
      const code = (error as NodeJS.ErrnoException).code;
      // The code only: Node's message repeats the address connected to (what the host name resolved to).
      return { ok: false, reason: `Fetching ${url.href} failed: ${code ?? 'the connection failed'}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One GET; `fresh` opens a connection of its own instead of reusing a kept-alive one. */
  private get(url: URL, signal: AbortSignal, fresh = false): Promise<FetchResult | { location: string }> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.resolve({ ok: false, reason: `Only data:, http: and https: files are fetched, not ${url.protocol}` });
    }
    const refusal = this.policy.refuseHost(url.hostname);
    if (refusal) return Promise.resolve({ ok: false, reason: refusal });
    const policy = this.policy;
    // Checked when the socket connects, on the addresses actually used: no window for DNS rebinding.
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const list = addresses as unknown as { address: string; family: number }[];
        for (const a of list) {
          const refused = policy.refuseAddress(url.hostname, a.address);
          if (refused) return callback(new Refused(refused), '', 0);
        }
        const [first] = list;
        if (first === undefined) return callback(noAddress(hostname), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        callback(null, first.address, first.family);
      });
    };
    const maxBytes = this.config.maxBytes;
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.get(
        url,
        { lookup, signal, ...(fresh ? { agent: false } : {}), headers: { accept: '*/*', 'user-agent': 'supply-chain-dataspace-node' } },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400 && res.headers.location) {
            res.resume();
            resolve({ location: res.headers.location });
            return;
          }
          if (status !== 200) {
            res.resume();
            resolve({ ok: false, reason: `${url.host} answered ${status} for ${url.pathname}` });
            return;
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            res.destroy();
            resolve({ ok: false, reason: `The file is ${declared} bytes, more than ${maxBytes} (DATASPACE_FETCH_MAX_BYTES)` });
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              resolve({ ok: false, reason: `The file is larger than ${maxBytes} bytes (DATASPACE_FETCH_MAX_BYTES)` });
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => {
            const mediaType = res.headers['content-type']?.split(';')[0]!.trim().toLowerCase() || undefined;
            resolve({ ok: true, bytes: Buffer.concat(chunks), mediaType });
          });
          res.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        reject(request.reusedSocket && error.code === 'ECONNRESET' ? new StaleSocket(error) : error);
      });
    });
  }
}
