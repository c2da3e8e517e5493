import type { QueryBank } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, SVC, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import type { OrganisationSeed, Role, Seed } from './seed.js';
import { commitDurably } from '../store/commit-durably.js';

/** A registered organisation: the seed's entry, as kept in the registry graph. */
export type Organisation = OrganisationSeed;

/**
 * Organisations, kept as RDF in the registry graph. Organisations are few and read on every
 * request, so they are also held in memory and reloaded after every change made through here.
 */
export class Registry {
  private organisations = new Map<string, Organisation>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
  ) {}

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
   * Applies a seed's organisations idempotently: same seed twice, same state, and nothing written.
   * Its users are the users' own (Users.applySeed), its policies the policies' (Policies.applySeed).
   */
  async applySeed(seed: Pick<Seed, 'organisations'> & Partial<Seed>): Promise<void> {
    const ops: ChangeOp[] = seed.organisations
      .filter((org) => !sameOrganisation(this.organisations.get(org.id), org))
      .flatMap((org) => this.organisationOps(org));
    if (ops.length > 0) {
      await commitDurably(this.store, { ops });
      await this.load();
    }
  }

  /** Replaces an organisation's registry entry (e.g. a new notification endpoint). */
  async updateOrganisation(org: Organisation): Promise<void> {
    await commitDurably(this.store, { ops: this.organisationOps(org) });
    await this.load();
  }
}

/** Whether the registry holds `org` as the seed gives it (the locations as a set, as they are stored). */
function sameOrganisation(held: Organisation | undefined, org: OrganisationSeed): boolean {
  const locations = (list: string[]) => [...new Set(list)].sort().join('\n');
  return (
    held !== undefined &&
    held.name === org.name &&
    held.role === org.role &&
    held.country === (org.country || undefined) &&
    held.notificationUrl === (org.notificationUrl || undefined) &&
    held.notificationSecret === (org.notificationSecret || undefined) &&
    locations(held.locations) === locations(org.locations)
  );
}
