import type { QueryBank } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import { commitDurably } from '../store/commit-durably.js';

/** How many logged-out tokens are remembered, per account and in all (docs/accounts.md). */
export interface DenylistBounds {
  perAccount: number;
  total: number;
}

/**
 * Bounds that keep the denylist's heap small at its fullest (an entry's size: bench/session-check.ts;
 * figures in bench/results/2026-12-08-comment-figures.md).
 */
export const DEFAULT_DENYLIST_BOUNDS: DenylistBounds = { perAccount: 20, total: 50_000 };

const tokenIri = (jti: string): string => `urn:dataspace:revoked-token:${jti}`;

interface Revoked {
  account: string;
  expiry: number;
}

/**
 * The denylist of tokens ended by a logout before their expiry, by token id (jti). Kept in the registry
 * graph, so a restart on either store still refuses them, and in memory, one Map lookup a request. An
 * entry lives only until its token would have expired anyway. Memory is bounded: when an account
 * already has `perAccount` live entries, or the list holds `total`, a logout is answered with "full"
 * and the caller ends every token of the account instead (a new token epoch), which needs no entry.
 */
export class RevokedTokens {
  private readonly byId = new Map<string, Revoked>();
  private readonly byAccount = new Map<string, Set<string>>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly bounds: DenylistBounds = DEFAULT_DENYLIST_BOUNDS,
  ) {}

  /** Reads the list and deletes from the store what has expired meanwhile. */
  /** Reads the revoked tokens; `prune` deletes the expired ones (a replica following the writer leaves that to it). */
  async load(now = Date.now(), prune = true): Promise<void> {
    const expired: string[] = [];
    for (const row of await this.store.select(this.queries.text('registry/revoked-tokens'))) {
      const jti = row.get('token')!.value.slice(tokenIri('').length);
      const expiry = Number(row.get('expires')!.value);
      if (expiry > now) this.remember(jti, { account: row.get('account')!.value, expiry });
      else expired.push(jti);
    }
    if (prune) await this.write(expired.flatMap((jti) => this.deleteOps(jti)));
  }

  /** Whether a logout ended this token: on every authenticated request. */
  has(jti: string): boolean {
    return this.byId.has(jti);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Lists a token until `expiry`; "full" when a bound is reached and nothing was listed. */
  async revoke(jti: string, account: string, expiry: number, now = Date.now()): Promise<'listed' | 'full'> {
    if (this.byId.has(jti) || expiry <= now) return 'listed';
    const stale = this.expired([...(this.byAccount.get(account) ?? [])], now);
    if ((this.byAccount.get(account)?.size ?? 0) - stale.length >= this.bounds.perAccount) return 'full';
    if (this.byId.size - stale.length >= this.bounds.total) stale.push(...this.expired([...this.byId.keys()], now));
    if (this.byId.size - new Set(stale).size >= this.bounds.total) return 'full';
    const listed = new NQuadsBuilder(GRAPHS.registry)
      .iri(tokenIri(jti), RDF_TYPE, svc('RevokedToken'))
      .literal(tokenIri(jti), svc('account'), account)
      .literal(tokenIri(jti), svc('expires'), expiry);
    const gone = [...new Set(stale)];
    await this.write([...gone.flatMap((id) => this.deleteOps(id)), { op: 'insert', nquads: listed.toString() }]);
    for (const id of gone) this.drop(id);
    this.remember(jti, { account, expiry });
    return 'listed';
  }

  /** Forgets an account's entries once a new epoch ended all its tokens anyway. */
  async forgetAccount(account: string): Promise<void> {
    const ids = [...(this.byAccount.get(account) ?? [])];
    await this.write(ids.flatMap((id) => this.deleteOps(id)));
    for (const id of ids) this.drop(id);
  }

  private expired(ids: string[], now: number): string[] {
    return ids.filter((id) => (this.byId.get(id)?.expiry ?? 0) <= now);
  }

  private remember(jti: string, entry: Revoked): void {
    this.byId.set(jti, entry);
    let ids = this.byAccount.get(entry.account);
    if (!ids) this.byAccount.set(entry.account, (ids = new Set()));
    ids.add(jti);
  }

  private drop(jti: string): void {
    const entry = this.byId.get(jti);
    if (!entry) return;
    this.byId.delete(jti);
    const ids = this.byAccount.get(entry.account);
    ids?.delete(jti);
    if (ids?.size === 0) this.byAccount.delete(entry.account);
  }

  private deleteOps(jti: string): ChangeOp[] {
    return [{ op: 'deleteMatching', subject: iriToString(tokenIri(jti)), predicate: null, object: null, graph: GRAPHS.registry }];
  }

  private async write(ops: ChangeOp[]): Promise<void> {
    if (ops.length > 0) await commitDurably(this.store, { ops });
  }
}
