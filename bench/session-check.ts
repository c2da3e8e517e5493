import { performance } from 'node:perf_hooks';
import { OxigraphStore } from '../src/adapters/oxigraph/oxigraph-store.js';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { Registry } from '../src/core/registry/registry.js';
import { Users } from '../src/core/accounts/users.js';
import { RevokedTokens } from '../src/core/accounts/revoked-tokens.js';
import { Sessions } from '../src/core/accounts/sessions.js';
import { TokenService } from '../src/core/auth/tokens.js';
import { hashPassword } from '../src/core/auth/passwords.js';

/**
 * What the revocation check costs a request: `node --expose-gc dist/bench/session-check.js [revoked] [iterations]`.
 * Times TokenService.verify alone (what authenticate did before: signature and expiry, cached, then a
 * Map lookup of the user) against Sessions.principal (the same plus the denylist, the account's epoch,
 * disabled flag and organisation), with `revoked` tokens on the denylist (default 20,000). Each in
 * rounds, interleaved, so a neighbour's load on a shared machine lands on both.
 */
const revokedCount = Number(process.argv[2] ?? 20_000);
const iterations = Number(process.argv[3] ?? 1_000_000);
const ORG = 'did:web:forwarder.example';
const EMAIL = 'ops@forwarder.example';

const store = new OxigraphStore();
const queries = new QueryBank();
const registry = new Registry(store, queries);
await registry.applySeed({ organisations: [{ id: ORG, name: 'Forwarder', role: 'freightForwarder', country: 'GB', locations: [] }] });
const users = new Users(store, queries, () => undefined);
await users.applySeed([{ email: EMAIL, organisation: ORG, passwordHash: await hashPassword('bench-password') }]);
const revoked = new RevokedTokens(store, queries, { perAccount: 20, total: 100_000 });
const expiry = Date.now() + 3_600_000;
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
for (let i = 0; i < revokedCount; i++) await revoked.revoke(`bench-jti-${i}`, `user:someone-${Math.floor(i / 20)}@x.example`, expiry);
gc?.();
// JS heap per denylist entry (run with --expose-gc; the store's copy is in its own memory).
const bytesPerEntry = gc && revokedCount > 0 ? Math.round((process.memoryUsage().heapUsed - heapBefore) / revokedCount) : undefined;
const tokens = new TokenService('bench-secret-0123456789abcdef', 3600, 'bench');
const sessions = new Sessions({ tokens, users, revoked, registry, audit: () => undefined });
const token = (await sessions.issue(EMAIL, users.get(EMAIL)!)).token;

async function time(check: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await check();
  const ns = ((performance.now() - started) * 1e6) / iterations;
  return ns;
}
const before = async () => {
  const c = await tokens.verify(token);
  return c && users.organisationOf(c.sub);
};
const after = () => sessions.principal(token);
const rounds: { before: number; after: number }[] = [];
for (let round = 0; round < 5; round++) rounds.push({ before: await time(before), after: await time(after) });
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const b = median(rounds.map((r) => r.before));
const a = median(rounds.map((r) => r.after));
console.log(
  JSON.stringify({
    revoked: revoked.size,
    bytesPerEntry,
    iterations,
    verifyAndLookupNs: Math.round(b),
    sessionsPrincipalNs: Math.round(a),
    revocationCheckNs: Math.round(a - b),
  }),
);
