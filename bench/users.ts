import { resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';

/** The bench seed (bench/seed.json): a forwarder that publishes, a border agency its policy covers. */
export const BENCH_SEED = resolve(projectRoot, 'bench', 'seed.json');

export const BENCH_USERS = {
  forwarder: { email: 'ops@forwarder.bench.example', password: 'bench-forwarder-pass', org: 'did:web:forwarder.bench.example' },
  border: { email: 'officer@border.bench.example', password: 'bench-border-pass', org: 'did:web:border.bench.example' },
} as const;

/** Logs `user` in on the node at `url`; its access token. */
export async function login(url: string, user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 200 || !token) throw new Error(`login ${user.email}: ${res.status} ${await res.text()}`);
  return token;
}

const CONSIGNMENTS = '/supply-chain/data-space/consignments';

/**
 * From now until the read index is in: the border officer's first list page answered other than 503
 * (a read waits for the index at most 20 s, then answers 503). The records and the read index load
 * after the node's first answer, so a restart's "first answer" leaves this out.
 */
export async function readIndexInMs(url: string): Promise<number> {
  const started = performance.now();
  const headers = { authorization: `Bearer ${await login(url, BENCH_USERS.border)}` };
  for (;;) {
    const res = await fetch(`${url}${CONSIGNMENTS}?limit=1`, { headers });
    await res.arrayBuffer();
    if (res.status !== 503) return performance.now() - started;
  }
}
