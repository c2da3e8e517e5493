import type { Accepted } from '../activities/accepted.js';
import { readRecords, type ConsignmentRecord, type RecordsRead } from '../catalog/records.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, list } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import type { CoverageTarget } from './coverage.js';
import { readIndexPages, type IndexPage } from './index-pages.js';
import { waitForLoad } from './load-wait.js';
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

/** The write path's records (catalog/records.ts): the read index takes the rows of their load, and shares their strings. */
export interface SharedRecords {
  byGlobalId(globalId: string): ConsignmentRecord | undefined;
  ready(): Promise<void>;
  keepLoaded(): void;
  takeLoaded(): RecordsRead | undefined;
}

export interface ConsignmentIndexOptions {
  /** Sequence numbers a page of the load covers (index-pages.ts). */
  pageSeqs?: number;
  /** How long a read waits for the load before it is answered 503 with a Retry-After. */
  loadWaitMs?: number;
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
  private shared: SharedRecords | undefined;
  /** Refreshes run one after another, and a read waits for the one under way (see ready). */
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank, private readonly options: ConsignmentIndexOptions = {}) {}

  /**
   * Reads the records once for both indexes: the load takes the rows the write path's load read (seq
   * and updated included) instead of reading every record again, and an entry read from the store
   * takes the write path's strings where they are equal (at 10k consignments both indexes took 20.9 MB
   * of heap instead of 26.4, docs/read-index.md). Call before the write path's load ends (the node
   * calls it before Ingest.init) and before the first read; the load then waits for the write path's
   * records (or their failure) first.
   */
  share(records: SharedRecords): void {
    this.shared = records;
    records.keepLoaded();
  }

  /** Notes a write; the entries it touched are read again before the next read. */
  accepted(accepted: Accepted): void {
    if (!this.loaded) return;
    // Every write moves the record's `updated`; events may move its status.
    this.pendingConsignments.add(accepted.consignment.consignment);
    if (accepted.kind === 'document') this.pendingRevisions.add(accepted.graph);
  }

  /**
   * Starts the load now, in the background, so that the first read does not wait for it: a node
   * restarted on Virtuoso with 100k consignments made its first reader wait 13–16 s. A failed load is
   * tried again by the next read, as in ready().
   */
  warm(): void {
    this.ready().catch(() => undefined);
  }

  /**
   * Loads at first use, then brings in the writes noted since. A load that failed is answered 503 and
   * tried again by the next read; one still running after `loadWaitMs` is answered 503 too, and goes
   * on for the reads after (a list never answers 500 because the store is large or slow).
   */
  async ready(): Promise<void> {
    if (!this.loaded) {
      const loading = this.load().catch((error: unknown) => {
        if (this.loaded === loading) this.loaded = undefined;
        this.forget();
        throw error;
      });
      loading.catch(() => undefined);
      this.loaded = loading;
    }
    await waitForLoad(this.loaded, this.options.loadWaitMs);
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
    if (revisions.length > 0) {
      const rows = await this.store.select(this.queries.bind('policy/document-order-of', { revisions: list(revisions.map(iri)) }));
      this.addDocuments(rows.map((row) => ({ seq: Number(row.get('seq')!.value), document: row.get('document')!.value, consignment: row.get('consignment')!.value })));
    }
  }

  /**
   * Takes the records the write path read at start (or reads them itself: readRecords), then every
   * route and document in pages of sequence numbers (index-pages.ts). Lists are filled unsorted and
   * sorted once: inserting 100k entries one by one in place is quadratic. A document comes after its
   * consignment's Create in sequence, but documents are linked at the end all the same, so no page
   * order can leave one out.
   *
   * The rows taken are the store's records as they were before any write since the write path's read
   * (records.ts releases them at the first write it remembers), and `loaded` is set before they are
   * taken, so every write after them is noted by accepted() and read again, as during a load of its own.
   */
  private async load(): Promise<void> {
    // Loaded already or loading at start: waiting lets the load take its rows. A failed write-path load is the writes' error, not the reads'.
    await this.shared?.ready().catch(() => undefined);
    // Each step from a turn of its own: on the embedded store each is one synchronous block.
    await nextTurn();
    const read = this.shared?.takeLoaded() ?? await this.readRecords();
    // Start records written since they carry the route give every route: no route read then.
    const routed = read.records.every((record) => record.routes !== undefined);
    const located = (entry: ConsignmentEntry, location: string) => {
      if (entry.locations.has(location)) return;
      entry.locations.add(location);
      push(this.byLocation, location, entry);
    };
    for (const record of read.records) {
      if (this.byIri.has(record.consignment)) continue;
      const entry = this.remember(record);
      push(this.byOwner, record.owner, entry);
      if (routed) for (const location of record.routes!) located(entry, location);
    }
    // A record without a sequence number, or a server that cut an answer short, shows here (more is
    // fine: a Create committed during the load may fall in the last range).
    if (this.byIri.size < read.count) throw new Error(`The store lists ${read.count} consignment records but the paged read found ${this.byIri.size}`);
    const documents: IndexPage['documents'] = [];
    await nextTurn();
    await readIndexPages(this.store, this.queries, (page) => {
      for (const { consignment, location } of page.routes) {
        const entry = this.byIri.get(consignment);
        if (entry) located(entry, location);
      }
      documents.push(...page.documents);
    }, { pageSeqs: this.options.pageSeqs, routes: !routed });
    for (const lists of [this.byOwner, this.byLocation]) for (const entries of lists.values()) entries.sort((a, b) => a.seq - b.seq);
    this.addDocuments(documents);
  }

  /** The records read from the store, with the write path's strings in place of equal ones (sharing). */
  private async readRecords(): Promise<RecordsRead> {
    const read = await readRecords(this.store, this.queries, this.options.pageSeqs);
    return { records: read.records.map((record) => this.sharing(record)), count: read.count };
  }

  /** Clears what a failed load left, so the next read loads afresh. */
  private forget(): void {
    for (const map of [this.byIri, this.byGlobalId, this.byIdentifier, this.byOwner, this.byLocation, this.documentsByOwner]) map.clear();
    this.documents.clear();
    this.pendingConsignments.clear();
    this.pendingRevisions.clear();
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

  /** The record with the write path's strings in place of equal ones just read: one copy of each in the heap. */
  private sharing(record: VisibleConsignment): VisibleConsignment {
    const held = this.shared?.byGlobalId(record.globalId);
    if (!held || held.consignment !== record.consignment) return record;
    const pick = (read: string, kept: string) => (read === kept ? kept : read);
    return {
      consignment: held.consignment, globalId: held.globalId, owner: pick(record.owner, held.owner), identifier: pick(record.identifier, held.identifier),
      stateGraph: pick(record.stateGraph, held.stateGraph), created: pick(record.created, held.created), status: pick(record.status, held.status),
      // `updated` is `created` until the first Update: share that string too, else the record keeps a slice of its whole packed row.
      updated: pick(record.updated, held.created), seq: record.seq, ...(record.routes && { routes: record.routes }),
    };
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
      const entry = this.remember(this.sharing(visibleConsignment(row)));
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

  private addDocuments(rows: { seq: number; document: string; consignment: string }[]): void {
    const touched = new Set<DocumentEntry[]>();
    for (const row of rows) {
      const consignment = this.byIri.get(row.consignment);
      if (this.documents.has(row.document) || !consignment) continue;
      this.documents.add(row.document);
      touched.add(push(this.documentsByOwner, consignment.owner, { seq: row.seq, iri: row.document, consignment }));
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
