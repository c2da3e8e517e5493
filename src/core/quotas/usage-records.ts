import { createHash, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { iri, type QueryBank } from '../queries/query-bank.js';
import { svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QueryStore } from '../ports/quad-store.js';

/** What an organisation's writes have used of its quotas. */
export interface OrganisationUsage {
  consignments: number;
  graphs: number;
  policies: number;
  bytes: number;
}

/** What one organisation has added to one consignment. */
export interface Tally {
  graphs: number;
  bytes: number;
}

/** Consignments' tallies held: far more than the charged commits in flight at once (the ingest commits one at a time). */
const TALLIES_HELD = 10_000;

/** The node's own graph of usage totals: never in a reader's dataset (visibility names data graphs only). */
export const USAGE_GRAPH = 'urn:dataspace:graph:usage';

const usageIri = (...parts: string[]): string =>
  `urn:dataspace:usage:${createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32)}`;

const replaceOps = (subject: string, nquads: string): ChangeOp[] => [
  { op: 'deleteMatching', subject: iriToString(subject), predicate: null, object: null, graph: USAGE_GRAPH },
  { op: 'insert', nquads },
];

/**
 * The totals the quotas are checked against, kept in memory and written with each charged commit (the
 * gate adds these ops to it), so a start reads them back instead of counting what the store holds:
 * one row per organisation at start, and a consignment's rows (an index lookup) when it is first
 * written to after a start or after its tallies left the bounded cache. The one owner of the usage graph.
 */
export class UsageBook {
  private readonly organisations = new Map<string, OrganisationUsage>();
  /**
   * The subject of each organisation's row as last written. Each write gives the row a new subject and
   * deletes the last one's five quads: the embedded store keeps every removed quad in its subject's
   * version chain until a compaction (docs/memory-compaction.md), so one subject rewritten at every
   * write made each delete walk all its earlier versions, a Create slower with every write (the
   * figure: bench/results/2026-12-07-comment-figures.md).
   */
  private readonly rows = new Map<string, string>();
  /**
   * Consignments' tallies as last written, the most recently charged first: bounded, since a node that
   * served a million consignments since its start must not hold a tally of each. One evicted is read
   * again from the store, which its charged commit, long since applied, holds.
   */
  private readonly consignments = new LRUCache<string, Promise<Map<string, Tally>>>({ max: TALLIES_HELD });

  constructor(
    private readonly store: QueryStore,
    private readonly queries: QueryBank,
  ) {}

  async load(): Promise<void> {
    for (const row of await this.store.select(this.queries.text('quota/organisation-usage'))) {
      const n = (name: string): number => Number(row.get(name)!.value);
      const organisation = row.get('organisation')!.value;
      const known = this.organisations.get(organisation);
      // One row an organisation; should a failed write have left two, the larger counts (never undercount).
      if (
        known &&
        known.consignments + known.graphs + known.policies + known.bytes > n('consignments') + n('graphs') + n('policies') + n('bytes')
      )
        continue;
      this.organisations.set(organisation, {
        consignments: n('consignments'),
        graphs: n('graphs'),
        policies: n('policies'),
        bytes: n('bytes'),
      });
      this.rows.set(organisation, row.get('usage')!.value);
    }
  }

  /** The organisation's totals, live: the gate changes them in place. */
  organisation(organisation: string): OrganisationUsage {
    let usage = this.organisations.get(organisation);
    if (!usage) this.organisations.set(organisation, (usage = { consignments: 0, graphs: 0, policies: 0, bytes: 0 }));
    return usage;
  }

  /**
   * What each organisation has added to the consignment (record IRI), by organisation; live, like
   * `organisation`. A consignment being created has nothing yet: no lookup.
   */
  consignment(record: string, created = false): Promise<Map<string, Tally>> {
    let tallies = this.consignments.get(record);
    if (!tallies) {
      tallies = created ? Promise.resolve(new Map<string, Tally>()) : this.readConsignment(record);
      this.consignments.set(record, tallies);
      tallies.catch(() => this.consignments.delete(record));
    }
    return tallies;
  }

  private async readConsignment(record: string): Promise<Map<string, Tally>> {
    const rows = await this.store.select(this.queries.bind('quota/consignment-usage', { consignment: iri(record) }));
    return new Map(
      rows.map((row) => [
        row.get('contributor')!.value,
        { graphs: Number(row.get('graphs')!.value), bytes: Number(row.get('bytes')!.value) },
      ]),
    );
  }

  /**
   * The ops that replace the organisation's row with `usage`, under a new subject; `undo` puts the last
   * subject back for a commit the store then refuses (its row was not written).
   */
  organisationOps(organisation: string, usage: OrganisationUsage): { ops: ChangeOp[]; undo: () => void } {
    const last = this.rows.get(organisation);
    const u = `urn:dataspace:usage:${randomUUID()}`;
    this.rows.set(organisation, u);
    const nquads = new NQuadsBuilder(USAGE_GRAPH)
      .iri(u, svc('organisation'), organisation)
      .literal(u, svc('consignments'), usage.consignments)
      .literal(u, svc('graphs'), usage.graphs)
      .literal(u, svc('policies'), usage.policies)
      .literal(u, svc('bytes'), usage.bytes)
      .toString();
    const undo = () => {
      if (this.rows.get(organisation) !== u) return;
      if (last === undefined) this.rows.delete(organisation);
      else this.rows.set(organisation, last);
    };
    return { ops: last === undefined ? [{ op: 'insert', nquads }] : replaceOps(last, nquads), undo };
  }

  /** `fresh`: the store has no row of this tally yet (its consignment's tallies, read or new, did not hold it): nothing to delete. */
  tallyOps(record: string, contributor: string, tally: Tally, fresh = false): ChangeOp[] {
    const u = usageIri('consignment', record, contributor);
    const nquads = new NQuadsBuilder(USAGE_GRAPH)
      .iri(u, svc('consignment'), record)
      .iri(u, svc('contributor'), contributor)
      .literal(u, svc('graphs'), tally.graphs)
      .literal(u, svc('bytes'), tally.bytes)
      .toString();
    return fresh ? [{ op: 'insert', nquads }] : replaceOps(u, nquads);
  }
}
