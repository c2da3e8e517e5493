import { createHash } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { str } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, SVC, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import type { OrganisationSeed, Role, Seed, UserSeed } from './seed.js';

/** A registered organisation: the seed's entry, as kept in the registry graph. */
export type Organisation = OrganisationSeed;

export interface User {
  email: string;
  organisation: string;
}

const userIri = (email: string): string => `urn:dataspace:user:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;

/**
 * Organisations and users, kept as RDF in the registry graph. Organisations are few and read on every
 * request, so they are also held in memory and reloaded after every change made through here.
 */
export class Registry {
  private organisations = new Map<string, Organisation>();
  private users = new Map<string, string>();
  /** The seed's clear-text passwords being checked against the stored hashes (applySeed). */
  private seedPasswords: Promise<void> = Promise.resolve();

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  async load(): Promise<void> {
    const rows = await this.store.select(this.queries.text('registry/organisations'));
    const byId = new Map<string, Organisation>();
    for (const row of rows) {
      const id = row.get('org')!.value;
      let org = byId.get(id);
      if (!org) {
        org = {
          id,
          name: row.get('name')!.value,
          role: row.get('role')!.value.slice(SVC.length) as Role,
          country: row.get('country')?.value,
          locations: [],
          notificationUrl: row.get('notificationUrl')?.value,
          notificationSecret: row.get('notificationSecret')?.value,
        };
        byId.set(id, org);
      }
      const location = row.get('location')?.value;
      if (location && !org.locations.includes(location)) org.locations.push(location);
    }
    this.organisations = byId;
    const users = await this.store.select(this.queries.text('registry/users'));
    this.users = new Map(users.map((row) => [row.get('email')!.value, row.get('organisation')!.value]));
  }

  /** The user's organisation, when the user still exists and belongs to it. */
  userOrganisation(email: string): Organisation | undefined {
    const org = this.users.get(email);
    return org === undefined ? undefined : this.organisations.get(org);
  }

  organisation(id: string): Organisation | undefined {
    return this.organisations.get(id);
  }

  all(): Organisation[] {
    return [...this.organisations.values()];
  }

  withRole(role: Role): Organisation[] {
    return this.all().filter((o) => o.role === role);
  }

  /** The user when email and password match; otherwise undefined, in the same time either way. */
  async authenticate(email: string, password: string): Promise<User | undefined> {
    await this.seedPasswords;
    const [row] = await this.store.select(this.queries.bind('registry/user-by-email', { email: str(email.toLowerCase()) }));
    if (!row) {
      await verifyPassword(password, await dummyHash);
      return undefined;
    }
    const ok = await verifyPassword(password, row.get('passwordHash')!.value);
    return ok ? { email: email.toLowerCase(), organisation: row.get('organisation')!.value } : undefined;
  }

  organisationOps(org: OrganisationSeed): ChangeOp[] {
    const b = new NQuadsBuilder(GRAPHS.registry)
      .iri(org.id, RDF_TYPE, svc('Organisation'))
      .literal(org.id, svc('name'), org.name)
      .iri(org.id, svc('role'), svc(org.role));
    if (org.country) b.literal(org.id, svc('country'), org.country);
    for (const location of org.locations) b.literal(org.id, svc('location'), location);
    if (org.notificationUrl) b.literal(org.id, svc('notificationUrl'), org.notificationUrl);
    if (org.notificationSecret) b.literal(org.id, svc('notificationSecret'), org.notificationSecret);
    return [
      { op: 'deleteMatching', subject: iriToString(org.id), predicate: null, object: null, graph: GRAPHS.registry },
      { op: 'insert', nquads: b.toString() },
    ];
  }

  /**
   * Applies a seed's organisations and users idempotently: same seed twice, same state, and nothing
   * written; passwords are rehashed only when they change. Its policies are the policies' own
   * (Policies.applySeed). A clear-text password of a user already registered is checked after this
   * resolves (an scrypt, ~0.1 s on a 2-core VM, was the start's longest wait after the store): logins
   * wait for that check and for the new hash it may write, so none sees the old password meanwhile.
   */
  async applySeed(seed: Seed): Promise<void> {
    const ops: ChangeOp[] = seed.organisations.filter((org) => !sameOrganisation(this.organisations.get(org.id), org)).flatMap((org) => this.organisationOps(org));
    const later: { user: UserSeed; stored: string }[] = [];
    const rows = await Promise.all(seed.users.map(async (user) => (await this.store.select(this.queries.bind('registry/user-by-email', { email: str(user.email) })))[0]));
    const changed = seed.users.filter((user, i) => {
      const row = rows[i];
      if (row === undefined || row.get('organisation')!.value !== user.organisation) return true;
      if (user.passwordHash !== undefined) return user.passwordHash !== row.get('passwordHash')!.value;
      later.push({ user, stored: row.get('passwordHash')!.value });
      return false;
    });
    // Hashed together: each clear-text password is an scrypt off the event loop.
    ops.push(...(await Promise.all(changed.map((user) => this.userOps(user)))).flat());
    if (ops.length > 0) {
      await (await this.store.commit({ ops })).durable;
      await this.load();
    }
    this.seedPasswords = later.length > 0 ? this.checkSeedPasswords(later) : Promise.resolve();
  }

  /** Settles once the seed's password check (applySeed) has written what it had to. */
  seeded(): Promise<void> {
    return this.seedPasswords;
  }

  /** Hashes again, and writes, the seed's clear-text passwords that no longer match the stored hash. */
  private async checkSeedPasswords(users: { user: UserSeed; stored: string }[]): Promise<void> {
    const changed = await Promise.all(users.map(({ user, stored }) => verifyPassword(user.password!, stored).then((same) => !same)));
    const ops = (await Promise.all(users.filter((_, i) => changed[i]).map(({ user }) => this.userOps(user)))).flat();
    if (ops.length > 0) await (await this.store.commit({ ops })).durable;
  }

  private async userOps(user: UserSeed): Promise<ChangeOp[]> {
    const iri = userIri(user.email);
    return [
      { op: 'deleteMatching', subject: iriToString(iri), predicate: null, object: null, graph: GRAPHS.registry },
      {
        op: 'insert',
        nquads: new NQuadsBuilder(GRAPHS.registry)
          .iri(iri, RDF_TYPE, svc('User'))
          .literal(iri, svc('email'), user.email)
          .literal(iri, svc('passwordHash'), user.passwordHash ?? await hashPassword(user.password!))
          .iri(iri, svc('organisation'), user.organisation)
          .toString(),
      },
    ];
  }

  /** Replaces an organisation's registry entry (e.g. a new notification endpoint). */
  async updateOrganisation(org: Organisation): Promise<void> {
    await (await this.store.commit({ ops: this.organisationOps(org) })).durable;
    await this.load();
  }
}

/** Whether the registry holds `org` as the seed gives it (the locations as a set, as they are stored). */
function sameOrganisation(held: Organisation | undefined, org: OrganisationSeed): boolean {
  const locations = (list: string[]) => [...new Set(list)].sort().join('\n');
  return held !== undefined && held.name === org.name && held.role === org.role && held.country === (org.country || undefined)
    && held.notificationUrl === (org.notificationUrl || undefined) && held.notificationSecret === (org.notificationSecret || undefined)
    && locations(held.locations) === locations(org.locations);
}
