import { QuotaExceeded } from '../errors.js';
import { accountQuotaMessage } from '../quotas/quota-config.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import type { AccountAudit } from '../auth/account-audit.js';
import { hashClientSecret, type ClientSeed } from '../registry/seed.js';
import { newEpoch } from './users.js';
import { commitDurably } from '../store/commit-durably.js';

/** A machine client (OAuth 2.0 client credentials) of one organisation. */
export interface ClientAccount {
  clientId: string;
  organisation: string;
  epoch: string;
  /** SHA-256 of the current secret (client_secret_basic), when it has one. */
  secretHash?: string;
  /** The secret before the last rotation, accepted until `expires` (ms) so the client can switch over. */
  previous?: { hash: string; expires: number };
  /** The public key its client assertions are signed with (private_key_jwt). */
  jwk?: Record<string, unknown>;
  fromApi: boolean;
  /** Clients are never disabled (they are removed) and never admins: the fields tokens are checked against. */
  disabled: false;
  admin: false;
}

const clientIri = (id: string): string => `urn:dataspace:client:${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
const newSecret = (): string => randomBytes(32).toString('base64url');

function sameHash(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The one owner of machine clients: the seed's, and those organisation admins register. Like users,
 * each change is durable in the store (the registry graph) before memory takes it, one at a time.
 */
export class Clients {
  private clients = new Map<string, ClientAccount>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly audit: AccountAudit,
    private readonly overlapSeconds: number,
    /** Clients an organisation may register (DATASPACE_QUOTA_CLIENTS); 0 for no bound. Each holds a key or secret in the store. */
    private readonly maxPerOrganisation = 0,
  ) {}

  async load(): Promise<void> {
    const clients = new Map<string, ClientAccount>();
    for (const row of await this.store.select(this.queries.text('registry/clients'))) {
      const clientId = row.get('clientId')!.value;
      const previous = row.get('previousSecretHash')?.value;
      const jwk = row.get('jwk')?.value;
      clients.set(clientId, {
        clientId,
        organisation: row.get('organisation')!.value,
        epoch: row.get('epoch')!.value,
        secretHash: row.get('secretHash')?.value,
        previous: previous === undefined ? undefined : { hash: previous, expires: Number(row.get('previousSecretExpires')!.value) },
        jwk: jwk === undefined ? undefined : (JSON.parse(jwk) as Record<string, unknown>),
        fromApi: row.get('fromApi')?.value === 'true',
        disabled: false,
        admin: false,
      });
    }
    this.clients = clients;
  }

  get(clientId: string): ClientAccount | undefined {
    return this.clients.get(clientId);
  }

  ofOrganisation(organisation: string): ClientAccount[] {
    return [...this.clients.values()].filter((c) => c.organisation === organisation).sort((a, b) => a.clientId.localeCompare(b.clientId));
  }

  /** Whether `secret` is the client's secret, or its previous one within the overlap window. */
  checkSecret(client: ClientAccount, secret: string, now = Date.now()): boolean {
    const hash = hashClientSecret(secret);
    const current = client.secretHash !== undefined && sameHash(hash, client.secretHash);
    const previous = client.previous !== undefined && now < client.previous.expires && sameHash(hash, client.previous.hash);
    return current || previous;
  }

  /** The seed's clients: written when new or changed; a client the seed stops listing is removed (its tokens end). */
  async applySeed(seed: ClientSeed[]): Promise<void> {
    const listed = new Set(seed.map((c) => c.clientId));
    const removed = [...this.clients.values()].filter((c) => !c.fromApi && !listed.has(c.clientId));
    const written = seed
      .filter((c) => {
        const held = this.clients.get(c.clientId);
        return (
          !held ||
          held.fromApi ||
          held.organisation !== c.organisation ||
          held.secretHash !== c.secretHash ||
          JSON.stringify(held.jwk) !== JSON.stringify(c.jwk)
        );
      })
      .map((c): ClientAccount => ({
        clientId: c.clientId,
        organisation: c.organisation,
        epoch: newEpoch(),
        secretHash: c.secretHash,
        jwk: c.jwk,
        fromApi: false,
        disabled: false,
        admin: false,
      }));
    await this.write([...removed.flatMap((c) => this.removeOps(c.clientId)), ...written.flatMap((c) => this.clientOps(c))]);
    for (const c of removed) this.forget(c, 'seed');
    for (const c of written)
      this.remember(c, 'seed', this.clients.has(c.clientId) ? 'replaced' : 'registered', this.clients.has(c.clientId));
  }

  /** Registers a client of `organisation`: with a public JWK, or else with a new secret, answered once. Undefined when the id is taken. */
  register(
    organisation: string,
    fields: { clientId: string; jwk?: Record<string, unknown> },
    by: string,
  ): Promise<{ client: ClientAccount; secret?: string } | undefined> {
    return this.serially(async () => {
      if (this.clients.has(fields.clientId)) return undefined;
      if (this.maxPerOrganisation > 0 && this.ofOrganisation(organisation).length >= this.maxPerOrganisation)
        throw new QuotaExceeded(accountQuotaMessage('clients', this.maxPerOrganisation));
      const secret = fields.jwk === undefined ? newSecret() : undefined;
      const client: ClientAccount = {
        clientId: fields.clientId,
        organisation,
        epoch: newEpoch(),
        secretHash: secret && hashClientSecret(secret),
        jwk: fields.jwk,
        fromApi: true,
        disabled: false,
        admin: false,
      };
      await this.write(this.clientOps(client));
      this.remember(client, by, 'registered', false);
      return { client, secret };
    });
  }

  /** A new secret; the old one still works for the overlap window. Undefined when `organisation` has no such client. */
  rotateSecret(
    organisation: string,
    clientId: string,
    by: string,
    now = Date.now(),
  ): Promise<{ client: ClientAccount; secret: string } | undefined> {
    return this.serially(async () => {
      const held = this.clients.get(clientId);
      if (!held || held.organisation !== organisation) return undefined;
      const secret = newSecret();
      // On a whole second: a token's session start (`auth`) is in seconds, so a token issued in the
      // second the old secret stopped working would read as begun before it, and be ended with it.
      const expires = Math.floor((now + this.overlapSeconds * 1000) / 1000) * 1000;
      const client: ClientAccount = {
        ...held,
        secretHash: hashClientSecret(secret),
        previous: held.secretHash === undefined ? undefined : { hash: held.secretHash, expires },
      };
      await this.write(this.clientOps(client));
      this.remember(client, by, 'secret-rotated', false);
      return { client, secret };
    });
  }

  /** Removes a client of `organisation`, and so its tokens; false when it has no such client. */
  remove(organisation: string, clientId: string, by: string): Promise<boolean> {
    return this.serially(async () => {
      const held = this.clients.get(clientId);
      if (!held || held.organisation !== organisation) return false;
      await this.write(this.removeOps(clientId));
      this.forget(held, by);
      return true;
    });
  }

  endAllTokens(clientId: string, by: string): Promise<void> {
    return this.serially(async () => {
      const held = this.clients.get(clientId);
      if (!held) return;
      const client = { ...held, epoch: newEpoch() };
      await this.write(this.clientOps(client));
      this.remember(client, by, 'tokens-ended', true);
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private remember(client: ClientAccount, by: string, action: string, tokensEnded: boolean): void {
    this.clients.set(client.clientId, client);
    this.audit({ kind: 'client', action, account: client.clientId, organisation: client.organisation, by, tokensEnded });
  }

  private forget(client: ClientAccount, by: string): void {
    this.clients.delete(client.clientId);
    this.audit({ kind: 'client', action: 'removed', account: client.clientId, organisation: client.organisation, by, tokensEnded: true });
  }

  private async write(ops: ChangeOp[]): Promise<void> {
    if (ops.length > 0) await commitDurably(this.store, { ops });
  }

  private removeOps(clientId: string): ChangeOp[] {
    return [{ op: 'deleteMatching', subject: iriToString(clientIri(clientId)), predicate: null, object: null, graph: GRAPHS.registry }];
  }

  private clientOps(client: ClientAccount): ChangeOp[] {
    const iri = clientIri(client.clientId);
    const b = new NQuadsBuilder(GRAPHS.registry)
      .iri(iri, RDF_TYPE, svc('Client'))
      .literal(iri, svc('clientId'), client.clientId)
      .iri(iri, svc('organisation'), client.organisation)
      .literal(iri, svc('tokenEpoch'), client.epoch);
    if (client.secretHash !== undefined) b.literal(iri, svc('secretHash'), client.secretHash);
    if (client.previous !== undefined)
      b.literal(iri, svc('previousSecretHash'), client.previous.hash).literal(iri, svc('previousSecretExpires'), client.previous.expires);
    if (client.jwk !== undefined) b.literal(iri, svc('publicJwk'), JSON.stringify(client.jwk));
    if (client.fromApi) b.literal(iri, svc('addedOverApi'), 'true');
    return [...this.removeOps(client.clientId), { op: 'insert', nquads: b.toString() }];
  }
}
