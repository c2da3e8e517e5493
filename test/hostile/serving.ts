import { request } from 'node:http';
import type { TestNode } from '../helpers/test-node.js';

/**
 * A read by another user while (or right after) a hostile request runs: its latency is measured, so
 * a test can show the node kept serving others rather than assume it.
 */
export async function timedRead(
  node: TestNode,
  user: 'forwarder' | 'border' | 'otherForwarder' = 'otherForwarder',
): Promise<{ status: number; ms: number }> {
  const token = await node.login(user);
  const started = performance.now();
  const res = await node.request('GET', '/supply-chain/data-space/consignments?limit=1', { token });
  return { status: res.status, ms: performance.now() - started };
}

/** Generous: these run on a shared 2-core machine next to other test suites. */
export const SERVING_BOUND_MS = 2000;

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request over node:http, so a test controls headers and the local address the node sees. */
export function rawRequest(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string },
): Promise<RawAnswer> {
  const target = new URL(options.path, url);
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            /* not JSON: kept as text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
