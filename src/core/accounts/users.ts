import { QuotaExceeded } from '../errors.js';
import { accountQuotaMessage } from '../quotas/quota-config.js';
import { createHash, randomBytes } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import type { AccountAudit } from '../auth/account-audit.js';
import type { UserSeed } from '../registry/seed.js';
import { commitDurably } from '../store/commit-durably.js';

/** A user account as the node holds it: in the registry graph, and in memory for every request. */
export interface UserAccount {
  email: string;
  organisation: string;
  passwordHash: string;
  /** The hash of the seed's password as last applied: the seed rewrites a password only when its own changed. */
  seedPasswordHash?: string;
  /** Replaced whenever every token of the account must end; a token carries the epoch it was issued in. */
  epoch: string;
  admin: boolean;
  disabled: boolean;
  /** Added by an organisation admin: a seed that does not list it leaves it alone. */
  fromApi: boolean;
}

/** What an organisation admin may change on a user of its organisation. */
export interface UserChange {
  password?: string;
  admin?: boolean;
  disabled?: boolean;
}

export type LoginOutcome = { user: UserAccount } | { refused: 'wrong-credentials' | 'disabled' };

const userIri = (email: string): string => `urn:dataspace:user:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
export const newEpoch = (): string => randomBytes(9).toString('base64url');

/**
 * The one owner of user accounts: logins, the state every token is checked against, the seed's users
 * and the changes organisation admins make. Each change is durable in the store before it is taken into
 * memory, so it holds after a restart on either store; changes run one at a time.
 */
export class Users {
  private users = new Map<string, UserAccount>();
  /** The seed's clear-text passwords being checked against the stored hashes (applySeed). */
  private seedPasswords: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly audit: AccountAudit,
    /** Users an organisation's admins may create (DATASPACE_QUOTA_USERS); 0 for no bound. */
    private readonly maxPerOrganisation = 0,
  ) {}

  async load(): Promise<void> {
    const rows = await this.store.select(this.queries.text('registry/users'));
    const users = new Map<string, UserAccount>();
    for (const row of rows) {
      const email = row.get('email')!.value;
      users.set(email, {
        email,
        organisation: row.get('organisation')!.value,
        passwordHash: row.get('passwordHash')!.value,
        seedPasswordHash: row.get('seedPasswordHash')?.value,
        epoch: row.get('epoch')?.value ?? '',
        admin: row.get('admin')?.value === 'true',
        disabled: row.get('disabled')?.value === 'true',
        fromApi: row.get('fromApi')?.value === 'true',
      });
    }
    this.users = users;
  }

  /** The account a token names, read on every request. */
  get(email: string): UserAccount | undefined {
    return this.users.get(email);
  }

  /** The user's organisation id, when the user exists. */
  organisationOf(email: string): string | undefined {
    return this.users.get(email)?.organisation;
  }

  ofOrganisation(organisation: string): UserAccount[] {
    return [...this.users.values()].filter((u) => u.organisation === organisation).sort((a, b) => a.email.localeCompare(b.email));
  }

  /** Checks a login in the same time whether the email is known or not; a disabled account is told so only with its right password. */
  async authenticate(email: string, password: string): Promise<LoginOutcome> {
    await this.seedPasswords;
    const user = this.users.get(email.toLowerCase());
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
    if (!user || !ok) return { refused: 'wrong-credentials' };
    return user.disabled ? { refused: 'disabled' } : { user };
  }

  /**
   * Applies the seed's users: the operator's source. A user it lists is written when new, moved, given
   * another admin flag or another password than the seed last gave (an admin's later password reset
   * or disabling stands until then); a user it once listed and no longer does is removed. Users added
   * over the API are the admins' and stay. Whatever the seed rewrites starts a new token epoch.
   */
  async applySeed(seed: UserSeed[]): Promise<void> {
    const listed = new Set(seed.map((u) => u.email));
    const removed = [...this.users.values()].filter((u) => !u.fromApi && !listed.has(u.email));
    const later: UserSeed[] = [];
    const changed = seed.filter((user) => {
      const held = this.users.get(user.email);
      if (!held || held.fromApi || held.organisation !== user.organisation || held.admin !== (user.admin ?? false)) return true;
      const applied = held.seedPasswordHash ?? held.passwordHash;
      if (user.passwordHash !== undefined) return user.passwordHash !== applied;
      later.push(user);
      return false;
    });
    const written = await Promise.all(changed.map(async (user) => this.fromSeed(user, await this.seedHash(user))));
    await this.write([...removed.map((u) => this.removeOps(u.email)), ...written.map((u) => this.userOps(u))].flat());
    for (const u of removed) this.forget(u, 'seed', 'removed');
    for (const u of written) this.remember(u, 'seed', this.users.has(u.email) ? 'replaced' : 'created');
    this.seedPasswords = later.length > 0 ? this.checkSeedPasswords(later) : Promise.resolve();
  }

  /** Settles once the seed's password check (applySeed) has written what it had to. */
  seeded(): Promise<void> {
    return this.seedPasswords;
  }

  /** Adds a user to `organisation`; false when the email is taken (by any organisation). */
  create(organisation: string, fields: { email: string; password: string; admin: boolean }, by: string): Promise<UserAccount | undefined> {
    return this.serially(async () => {
      if (this.users.has(fields.email)) return undefined;
      if (this.maxPerOrganisation > 0 && this.ofOrganisation(organisation).length >= this.maxPerOrganisation)
        throw new QuotaExceeded(accountQuotaMessage('users', this.maxPerOrganisation));
      const user: UserAccount = {
        email: fields.email,
        organisation,
        passwordHash: await hashPassword(fields.password),
        epoch: newEpoch(),
        admin: fields.admin,
        disabled: false,
        fromApi: true,
      };
      await this.write(this.userOps(user));
      this.remember(user, by, 'created');
      return user;
    });
  }

  /** Changes a user of `organisation`; undefined when it has no such user. A new password or disabling ends the user's tokens. */
  update(organisation: string, email: string, change: UserChange, by: string): Promise<UserAccount | undefined> {
    return this.serially(async () => {
      const held = this.users.get(email);
      if (!held || held.organisation !== organisation) return undefined;
      const user = { ...held };
      if (change.admin !== undefined) user.admin = change.admin;
      if (change.disabled !== undefined) user.disabled = change.disabled;
      if (change.password !== undefined) user.passwordHash = await hashPassword(change.password);
      if (change.password !== undefined || (change.disabled === true && !held.disabled)) user.epoch = newEpoch();
      await this.write(this.userOps(user));
      const actions = [
        change.password !== undefined && 'password-reset',
        user.disabled !== held.disabled && (user.disabled ? 'disabled' : 'enabled'),
        user.admin !== held.admin && (user.admin ? 'admin-granted' : 'admin-withdrawn'),
      ].filter((a): a is string => typeof a === 'string');
      this.users.set(email, user);
      for (const action of actions)
        this.audit({ kind: 'user', action, account: email, organisation, by, tokensEnded: user.epoch !== held.epoch });
      return user;
    });
  }

  /** Removes a user of `organisation` and so every token of it; false when it has no such user. */
  remove(organisation: string, email: string, by: string): Promise<boolean> {
    return this.serially(async () => {
      const held = this.users.get(email);
      if (!held || held.organisation !== organisation) return false;
      await this.write(this.removeOps(email));
      this.forget(held, by, 'removed');
      return true;
    });
  }

  /** Ends every token of the user (a logout past the denylist's bound, see revoked-tokens.ts). */
  endAllTokens(email: string, by: string): Promise<void> {
    return this.serially(async () => {
      const held = this.users.get(email);
      if (!held) return;
      const user = { ...held, epoch: newEpoch() };
      await this.write(this.userOps(user));
      this.users.set(email, user);
      this.audit({ kind: 'user', action: 'tokens-ended', account: email, organisation: user.organisation, by, tokensEnded: true });
    });
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async seedHash(user: UserSeed): Promise<string> {
    return user.passwordHash ?? hashPassword(user.password);
  }

  private fromSeed(user: UserSeed, hash: string): UserAccount {
    return {
      email: user.email,
      organisation: user.organisation,
      passwordHash: hash,
      seedPasswordHash: hash,
      epoch: newEpoch(),
      admin: user.admin ?? false,
      disabled: false,
      fromApi: false,
    };
  }

  /** Hashes again, and writes, the seed's clear-text passwords that no longer match what the seed last gave. */
  private async checkSeedPasswords(seed: UserSeed[]): Promise<void> {
    const same = await Promise.all(
      seed.map((user) => {
        const held = this.users.get(user.email)!;
        return verifyPassword(user.password!, held.seedPasswordHash ?? held.passwordHash);
      }),
    );
    const written = await Promise.all(seed.filter((_, i) => !same[i]).map(async (user) => this.fromSeed(user, await this.seedHash(user))));
    await this.write(written.flatMap((u) => this.userOps(u)));
    for (const u of written) this.remember(u, 'seed', 'replaced');
  }

  private remember(user: UserAccount, by: string, action: string): void {
    this.users.set(user.email, user);
    this.audit({ kind: 'user', action, account: user.email, organisation: user.organisation, by, tokensEnded: action !== 'created' });
  }

  private forget(user: UserAccount, by: string, action: string): void {
    this.users.delete(user.email);
    this.audit({ kind: 'user', action, account: user.email, organisation: user.organisation, by, tokensEnded: true });
  }

  private async write(ops: ChangeOp[]): Promise<void> {
    if (ops.length > 0) await commitDurably(this.store, { ops });
  }

  private removeOps(email: string): ChangeOp[] {
    return [{ op: 'deleteMatching', subject: iriToString(userIri(email)), predicate: null, object: null, graph: GRAPHS.registry }];
  }

  private userOps(user: UserAccount): ChangeOp[] {
    const iri = userIri(user.email);
    const b = new NQuadsBuilder(GRAPHS.registry)
      .iri(iri, RDF_TYPE, svc('User'))
      .literal(iri, svc('email'), user.email)
      .literal(iri, svc('passwordHash'), user.passwordHash)
      .iri(iri, svc('organisation'), user.organisation)
      .literal(iri, svc('tokenEpoch'), user.epoch);
    if (user.seedPasswordHash !== undefined) b.literal(iri, svc('seedPasswordHash'), user.seedPasswordHash);
    if (user.admin) b.literal(iri, svc('admin'), 'true');
    if (user.disabled) b.literal(iri, svc('disabled'), 'true');
    if (user.fromApi) b.literal(iri, svc('addedOverApi'), 'true');
    return [...this.removeOps(user.email), { op: 'insert', nquads: b.toString() }];
  }
}
