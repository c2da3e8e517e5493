import type { Accepted } from '../activities/accepted.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, list } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import type { CoverageTarget } from './coverage.js';
import { insert, remove } from './seq-lists.js';
import { visibleConsignment, type VisibleConsignment } from './visible-records.js';

/** A consignment as the read index holds it: its record, and its route for the coverage rule. */
export interface ConsignmentEntry extends CoverageTarget {
  seq: number;
  iri: string;
  owner: string;
  globalId: string;
  locations: Set<string>;
  record: VisibleConsignment;
}

export interface DocumentEntry {
  seq: number;
  iri: string;
  consignment: ConsignmentEntry;
}

/**
 * Every consignment record and document in memory, in publication order per owner and per route
 * location, and by the ids a consignment answers to (globalId, identifier): what lists, id lookups
 * and coverage decisions read instead of querying the store (Oxigraph has no ordered index to page an
 * ORDER BY with; sorting every visible consignment per page took ~0.3 s at 10k, and a cold read spent
 * ~1 ms on id resolution and the coverage check in SPARQL).
 *
 * It follows the node's writes (`accepted`, wired to the inbox): the records a write touched are read
 * again before the next read is answered, so it serves a store this process alone writes (the embedded
 * one, or a SPARQL server the node is the one writer of, docs/external-store.md).
 */
export class ConsignmentIndex {
  private readonly byIri = new Map<string, ConsignmentEntry>();
  private readonly byGlobalId = new Map<string, ConsignmentEntry>();
  private readonly byIdentifier = new Map<string, ConsignmentEntry[]>();
  readonly byOwner = new Map<string, ConsignmentEntry[]>();
  readonly byLocation = new Map<string, ConsignmentEntry[]>();
  private readonly documents = new Set<string>();
  readonly documentsByOwner = new Map<string, DocumentEntry[]>();
  private loaded: Promise<void> | undefined;
  private readonly pendingConsignments = new Set<string>();
  private readonly pendingRevisions = new Set<string>();
  /** Refreshes run one after another, and a read waits for the one under way (see ready). */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  /** Notes a write; the entries it touched are read again before the next read. */
  accepted(accepted: Accepted): void {
    if (!this.loaded) return;
    // Every write moves the record's `updated`; events may move its status.
    this.pendingConsignments.add(accepted.consignment.consignment);
    if (accepted.kind === 'document') this.pendingRevisions.add(accepted.graph);
  }

  /** Loads at first use, then brings in the writes noted since. */
  async ready(): Promise<void> {
    this.loaded ??= this.load();
    await this.loaded;
    for (;;) {
      if (this.pendingConsignments.size > 0 || this.pendingRevisions.size > 0) {
        const consignments = [...this.pendingConsignments];
        const revisions = [...this.pendingRevisions];
        this.pendingConsignments.clear();
        this.pendingRevisions.clear();
        // Chained: a reader that arrives while another refreshes waits for it instead of reading an entry about to change.
        const run = this.refreshing.then(() => this.refresh(consignments, revisions));
        this.refreshing = run.catch(() => {
          consignments.forEach((c) => this.pendingConsignments.add(c));
          revisions.forEach((r) => this.pendingRevisions.add(r));
        });
        await run;
      } else {
        const refreshing = this.refreshing;
        await refreshing;
        // A refresh that failed put its writes back: whoever reads next tries again.
        if (this.refreshing === refreshing && this.pendingConsignments.size === 0 && this.pendingRevisions.size === 0) return;
      }
    }
  }

  private async refresh(consignments: string[], revisions: string[]): Promise<void> {
    if (consignments.length > 0) this.addConsignments(await this.store.select(this.queries.bind('policy/publication-order-of', { consignments: list(consignments.map(iri)) })));
    if (revisions.length > 0) this.addDocuments(await this.store.select(this.queries.bind('policy/document-order-of', { revisions: list(revisions.map(iri)) })));
  }

  // Plain patterns rather than one join: at 100k consignments the join took ~5 s, these ~2 s.
  // Lists are filled unsorted and sorted once: inserting 100k entries one by one in place is quadratic.
  private async load(): Promise<void> {
    for (const row of await this.store.select(this.queries.text('policy/publication-order'))) {
      const record = visibleConsignment(row);
      if (this.byIri.has(record.consignment)) continue;
      const entry = this.remember(record);
      push(this.byOwner, entry.owner, entry);
    }
    for (const row of await this.store.select(this.queries.text('policy/route-locations'))) {
      const entry = this.byIri.get(row.get('consignment')!.value);
      const location = row.get('location')!.value;
      if (!entry || entry.locations.has(location)) continue;
      entry.locations.add(location);
      push(this.byLocation, location, entry);
    }
    for (const lists of [this.byOwner, this.byLocation]) for (const entries of lists.values()) entries.sort((a, b) => a.seq - b.seq);
    this.addDocuments(await this.store.select(this.queries.text('policy/document-order')));
  }

  /** The entry of a consignment record IRI. */
  entry(consignment: string): ConsignmentEntry | undefined {
    return this.byIri.get(consignment);
  }

  /** The consignments an id names as globalId or as a publisher's identifier (unique per publisher only). */
  named(id: string): ConsignmentEntry[] {
    const byGlobalId = this.byGlobalId.get(id);
    const byIdentifier = this.byIdentifier.get(id) ?? [];
    return byGlobalId && !byIdentifier.includes(byGlobalId) ? [byGlobalId, ...byIdentifier] : byIdentifier;
  }

  /** A new entry, or the record an existing one now has (an Update may change its identifier). */
  private remember(record: VisibleConsignment): ConsignmentEntry {
    let entry = this.byIri.get(record.consignment);
    if (entry) {
      if (entry.record.identifier !== record.identifier) {
        const others = (this.byIdentifier.get(entry.record.identifier) ?? []).filter((e) => e !== entry);
        if (others.length > 0) this.byIdentifier.set(entry.record.identifier, others);
        else this.byIdentifier.delete(entry.record.identifier);
        push(this.byIdentifier, record.identifier, entry);
      }
      entry.record = record;
      return entry;
    }
    entry = { seq: record.seq, iri: record.consignment, owner: record.owner, globalId: record.globalId, locations: new Set(), record };
    this.byIri.set(entry.iri, entry);
    this.byGlobalId.set(entry.globalId, entry);
    push(this.byIdentifier, record.identifier, entry);
    return entry;
  }

  /** Moves the entry between location lists: an Update may change the route. */
  private route(entry: ConsignmentEntry, locations: Set<string>): void {
    for (const old of entry.locations) if (!locations.has(old)) remove(this.byLocation.get(old), entry);
    for (const location of locations) {
      if (entry.locations.has(location)) continue;
      let routed = this.byLocation.get(location);
      if (!routed) this.byLocation.set(location, routed = []);
      insert(routed, entry);
    }
    entry.locations = locations;
  }

  private addConsignments(rows: Bindings[]): void {
    const routes = new Map<ConsignmentEntry, Set<string>>();
    for (const row of rows) {
      const known = this.byIri.has(row.get('consignment')!.value);
      const entry = this.remember(visibleConsignment(row));
      if (!known) {
        let owned = this.byOwner.get(entry.owner);
        if (!owned) this.byOwner.set(entry.owner, owned = []);
        insert(owned, entry);
      }
      let locations = routes.get(entry);
      if (!locations) routes.set(entry, locations = new Set());
      const location = row.get('location')?.value;
      if (location) locations.add(location);
    }
    for (const [entry, locations] of routes) this.route(entry, locations);
  }

  private addDocuments(rows: Bindings[]): void {
    const touched = new Set<DocumentEntry[]>();
    for (const row of rows) {
      const document = row.get('document')!.value;
      const consignment = this.byIri.get(row.get('consignment')!.value);
      if (this.documents.has(document) || !consignment) continue;
      this.documents.add(document);
      touched.add(push(this.documentsByOwner, consignment.owner, { seq: Number(row.get('seq')!.value), iri: document, consignment }));
    }
    for (const owned of touched) owned.sort((a, b) => a.seq - b.seq);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): V[] {
  let values = map.get(key);
  if (!values) map.set(key, values = []);
  values.push(value);
  return values;
}
