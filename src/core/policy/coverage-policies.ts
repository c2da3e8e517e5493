import type { ChangeNote, PolicyFacts } from '../catalog/change-notes.js';
import type { QueryBank } from '../queries/query-bank.js';
import { SVC, svc } from '../rdf/namespaces.js';
import type { Bindings, QuadStore } from '../ports/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import { inSlices } from '../util/slices.js';
import { CoverageRule, type CoveragePolicy } from './coverage.js';

interface Permission {
  owner: string;
  roles: string[];
  countries: string[];
  locations: string[];
  consignments: string[];
}

const FIELDS: Record<string, 'roles' | 'countries' | 'locations' | 'consignments'> = {
  [svc('assigneeRole')]: 'roles',
  [svc('assigneeCountry')]: 'countries',
  [svc('routeLocation')]: 'locations',
  [svc('consignmentGlobalId')]: 'consignments',
};

/** The permission node policy-rdf.ts writes for a policy: what the rows of policy/all-policies.rq are keyed by. */
const permissionOf = (policy: string): string => `${policy}#permission`;

/** One policy per role of a permission (policy-rdf.ts writes one), with its sets made once, when it comes in. */
function withSets(permission: Permission): CoveragePolicy[] {
  const { roles, ...rest } = permission;
  const sets = { locationSet: new Set(rest.locations), globalIdSet: rest.consignments.length > 0 ? new Set(rest.consignments) : undefined };
  return roles.map((role) => ({ ...rest, role, ...sets }));
}

/**
 * The policies as the coverage rule in code reads them, from the rows of policy/all-policies.rq. A
 * permission naming several roles (policy-rdf.ts writes one) is one policy per role, which is how the
 * SPARQL form matches it.
 */
export function coveragePolicies(rows: Iterable<Bindings>): CoveragePolicy[] {
  return [...permissionsOf(rows).values()].flatMap(withSets);
}

function permissionsOf(rows: Iterable<Bindings>): Map<string, Permission> {
  const permissions = new Map<string, Permission>();
  for (const row of rows) addRow(permissions, row);
  return permissions;
}

function addRow(permissions: Map<string, Permission>, row: Bindings): void {
  const id = row.get('permission')!.value;
  let permission = permissions.get(id);
  if (!permission)
    permissions.set(id, (permission = { owner: row.get('owner')!.value, roles: [], countries: [], locations: [], consignments: [] }));
  const field = FIELDS[row.get('leftOperand')!.value];
  const value = row.get('value')!;
  if (field === 'roles') {
    if (value.termType === 'NamedNode' && value.value.startsWith(SVC)) permission.roles.push(value.value.slice(SVC.length));
  } else if (field && value.termType === 'Literal') {
    permission[field].push(value.value);
  }
}

/** A policy its writer registered, as the rule reads it: the same as its rows would give (policy-rdf.ts writes them from it). */
export function registered(policy: PolicyFacts): CoveragePolicy[] {
  return withSets({
    owner: policy.owner,
    roles: [policy.role],
    countries: [...policy.countries],
    locations: [...policy.locations],
    consignments: [...policy.consignments],
  });
}

/**
 * The coverage rule over the policies in force. Read from the store once, then, where this process is
 * the store's one writer (`followed`), kept in step by `follow` with each policy change as its writer
 * told it (the policy registered, the one withdrawn): a change costs the size of that one policy, and
 * the rule over all of them is remade from the policies held, which costs their number, not their
 * size. Re-reading every policy on each change held the node for tens of seconds after a toggle once
 * one organisation had registered a few large policies (the figures: bench/results/2026-12-07-comment-figures.md). A change whose
 * writer did not say what it was (the seed at start) reads them all again, in slices.
 */
export class CoveragePolicies {
  private readonly byPermission = new Map<string, CoveragePolicy[]>();
  private loading: Promise<void> | undefined;
  private current: CoverageRule | undefined;
  /** The policy notes followed while a load reads: applied again over what it read. */
  private during: ChangeNote[] | undefined;

  /** Without `followed` (a store others write too) the policies are read again for every decision. */
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly followed = false,
  ) {}

  async rule(): Promise<CoverageRule> {
    if (!this.followed) return new CoverageRule(coveragePolicies(await this.store.select(this.queries.text('policy/all-policies'))));
    await this.loaded();
    this.current ??= new CoverageRule([...this.byPermission.values()].flat());
    return this.current;
  }

  /**
   * Every policy in force, by policy id, as the rule reads it (one entry a role): what the change feed
   * journals when a change did not say what it was.
   */
  async inForce(): Promise<ReadonlyMap<string, readonly CoveragePolicy[]>> {
    if (!this.followed) throw new Error('the policies in force are held only where this process follows every change');
    await this.loaded();
    const suffix = permissionOf('').length;
    return new Map([...this.byPermission].map(([permission, policies]) => [permission.slice(0, -suffix), policies]));
  }

  /** Follows one committed change's notes (a follower of the change feed, before any read can come between). */
  follow(notes: readonly ChangeNote[]): void {
    for (const note of notes) {
      if (note.kind !== 'policies') continue;
      this.during?.push(note);
      this.current = undefined;
      if (!note.registered && !note.withdrawn) {
        // Not told what changed: read them all again at the next decision (after the load under way, if one is).
        if (!this.during) this.loading = undefined;
        continue;
      }
      for (const policy of note.withdrawn ?? []) this.byPermission.delete(permissionOf(policy));
      for (const policy of note.registered ?? []) this.byPermission.set(permissionOf(policy.id), registered(policy));
    }
  }

  /** Every policy, read once (and again after a change nobody described); a failed read is tried again by the next decision. */
  private loaded(): Promise<void> {
    if (!this.loading) {
      const loading = this.load();
      this.loading = loading;
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }

  /**
   * Every policy from its record literal (policy-rdf.ts policyRecord), one row a policy, or undefined
   * unless there is one for each policy: policies written before the records are read the long way.
   */
  private async fromRecords(): Promise<Map<string, CoveragePolicy[]> | undefined> {
    const [countRow] = await this.store.select(this.queries.text('policy/policy-count'));
    await nextTurn();
    const rows = await this.store.select(this.queries.text('policy/policy-records'));
    if (rows.length !== Number(countRow?.get('count')?.value ?? 0)) return undefined;
    const policies = new Map<string, CoveragePolicy[]>();
    await inSlices(rows, (row) => {
      const policy = JSON.parse(row.get('record')!.value) as PolicyFacts;
      policies.set(permissionOf(policy.id), registered(policy));
    });
    return policies;
  }

  /** Every policy from its constraint values (policy/all-policies.rq), one row a value. */
  private async fromRows(): Promise<Map<string, CoveragePolicy[]>> {
    await nextTurn();
    const rows = await this.store.select(this.queries.text('policy/all-policies'));
    const permissions = new Map<string, Permission>();
    await inSlices(rows, (row) => addRow(permissions, row));
    const policies = new Map<string, CoveragePolicy[]>();
    await inSlices(permissions, ([id, permission]) => policies.set(id, withSets(permission)));
    return policies;
  }

  private async load(): Promise<void> {
    const during: ChangeNote[] = [];
    this.during = during;
    try {
      const loaded = (await this.fromRecords()) ?? (await this.fromRows());
      this.byPermission.clear();
      await inSlices(loaded, ([id, policies]) => this.byPermission.set(id, policies));
    } finally {
      this.during = undefined;
    }
    // A change followed while the read ran may or may not be in its rows: applied again, it is; one
    // nobody described makes the next decision read them all again.
    this.follow(during.filter((note) => note.kind !== 'policies' || note.registered || note.withdrawn));
    if (during.length > 0 && during.some((note) => note.kind === 'policies' && !note.registered && !note.withdrawn))
      this.loading = undefined;
    this.current = undefined;
  }
}
