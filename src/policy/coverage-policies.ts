import type { QueryBank } from '../queries/query-bank.js';
import { SVC, svc } from '../rdf/namespaces.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import type { ChangeClock } from './change-clock.js';
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

/**
 * The policies as the coverage rule in code reads them, from the rows of policy/all-policies.rq. A
 * permission naming several roles (policy-rdf.ts writes one) is one policy per role, which is how the
 * SPARQL form matches it.
 */
export function coveragePolicies(rows: Iterable<Bindings>): CoveragePolicy[] {
  const permissions = new Map<string, Permission>();
  for (const row of rows) {
    const id = row.get('permission')!.value;
    let permission = permissions.get(id);
    if (!permission) permissions.set(id, permission = { owner: row.get('owner')!.value, roles: [], countries: [], locations: [], consignments: [] });
    const field = FIELDS[row.get('leftOperand')!.value];
    const value = row.get('value')!;
    if (field === 'roles') {
      if (value.termType === 'NamedNode' && value.value.startsWith(SVC)) permission.roles.push(value.value.slice(SVC.length));
    } else if (field && value.termType === 'Literal') {
      permission[field].push(value.value);
    }
  }
  return [...permissions.values()].flatMap(({ roles, ...rest }) => roles.map((role) => ({ ...rest, role })));
}

/**
 * The coverage rule over the policies in force, read from the store once and again after every policy
 * change (ChangeClock.policies): policies are few (a handful per organisation), so deciding a read costs
 * a map walk instead of a SPARQL query.
 */
export class CoveragePolicies {
  private current: { epoch: number; rule: Promise<CoverageRule> } | undefined;

  /** Without a clock (a store others write too) the policies are read again for every decision. */
  constructor(private readonly store: QuadStore, private readonly queries: QueryBank, private readonly clock?: ChangeClock) {}

  rule(): Promise<CoverageRule> {
    // Taken before the store is read: policies read before a change are never kept as later ones.
    const epoch = this.clock?.policies ?? NaN;
    if (this.current?.epoch !== epoch) {
      const rule = this.store.select(this.queries.text('policy/all-policies')).then((rows) => new CoverageRule(coveragePolicies(rows)));
      this.current = { epoch, rule };
      rule.catch(() => {
        if (this.current?.rule === rule) this.current = undefined;
      });
    }
    return this.current.rule;
  }
}
