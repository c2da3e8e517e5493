import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from './quad-store.js';
import { documentByIdentifier, storedMaxSeq } from '../catalog/stored-lookups.js';
import { insert, listOf, merged, remove } from '../util/seq-lists.js';
import type { Accepted } from '../catalog/accepted.js';
import type { Batch, CandidateLists, ConsignmentCatalog, ConsignmentEntry, DocumentEntry, Narrowing } from './consignment-catalog.js';
import { loadIndex, type IndexLoadOptions } from '../catalog/index-load.js';
import { canonicalGlobalId } from '../catalog/identities.js';
import type { StoredRecord } from '../catalog/records.js';
import { timeOf, UpdateOrder, type UpdateKey } from '../catalog/update-order.js';

export type ConsignmentIndexOptions = IndexLoadOptions;

const ownerKey = (owner: string, identifier: string): string => `${owner}\n${identifier}`;

/**
 * The consignment catalog in memory (a single node's): every record and document, in publication order
 * per owner, per route location and per status, and in update order. Read from the store once at start
 * (index-load.ts), then kept in step by the ingest's `accepted`: what the write already knows (the
 * record as the commit leaves it, its route, a new document) is applied in memory, so no read ever
 * catches up on the writes since the last one with a query that grows with them (a first read after
 * many Creates stalled the node for seconds doing that: bench/results/2026-12-08-comment-figures.md).
 * It serves a store this process alone writes (the embedded one, or a SPARQL server the node is the one
 * writer of, docs/external-store.md).
 */
export class ConsignmentIndex implements ConsignmentCatalog {
  private readonly byIri = new Map<string, ConsignmentEntry>();
  private readonly byGlobal = new Map<string, ConsignmentEntry>();
  /** Records stored before globalIds were kept canonical (identities.ts), by their canonical form; the first one wins. */
  private readonly legacyGlobal = new Map<string, ConsignmentEntry>();
  private readonly byOwnerIdentifier = new Map<string, ConsignmentEntry>();
  /** By the root id sent beside the globalId (pilot E's urn:ucr:…), unique across the node. */
  private readonly bySent = new Map<string, ConsignmentEntry>();
  /** An identifier is unique per publisher only: every consignment that has it. */
  private readonly withIdentifier = new Map<string, ConsignmentEntry[]>();
  readonly byOwner = new Map<string, ConsignmentEntry[]>();
  readonly byLocation = new Map<string, ConsignmentEntry[]>();
  /** Publication order per status (core/activities/status.ts): the list filter `status` walks one of these. */
  readonly byStatus = new Map<string, ConsignmentEntry[]>();
  /** Every consignment by when it last changed: the list filter `updatedSince` walks a suffix of it. */
  readonly byUpdate = new UpdateOrder<ConsignmentEntry>();
  private readonly documents = new Set<string>();
  readonly documentsByOwner = new Map<string, DocumentEntry[]>();
  /** Whether every record the load read carried its route (then no route is read from the store). */
  routed = false;
  /** The records read (what writes wait for), then the routes and documents (what reads wait for). */
  private records: Promise<void> | undefined;
  private rest: Promise<void> | undefined;
  /** A load the index was forgotten during: the next one starts after it, never beside it (both would fill the same lists). */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly options: ConsignmentIndexOptions = {},
  ) {}

  /** Starts the load without waiting for it: the node answers probes and logins meanwhile. */
  startLoading(): void {
    this.complete().catch(() => undefined);
  }

  /**
   * Resolves once the records are in: writes wait for this. A load that failed is told to whoever
   * waits, and tried again by the next caller (nothing was written meanwhile: writes wait for it).
   */
  ready(): Promise<void> {
    if (!this.records) {
      const loading = this.previous.then(() => loadIndex.records(this, this.store, this.queries, this.options));
      this.records = loading;
      loading.catch(() => {
        if (this.records === loading) this.records = undefined;
      });
    }
    return this.records;
  }

  /** Resolves once routes and documents are in too: reads wait for this. A failure is tried again by the next read. */
  async complete(): Promise<void> {
    await this.ready();
    if (!this.rest) {
      const loading = loadIndex.rest(this, this.store, this.queries, this.options);
      this.rest = loading;
      loading.catch(() => {
        if (this.rest === loading) this.rest = undefined;
      });
    }
    return this.rest;
  }

  async byGlobalId(globalId: string): Promise<StoredRecord | undefined> {
    return (this.byGlobal.get(globalId) ?? (this.legacyGlobal.size === 0 ? undefined : this.legacyGlobal.get(canonicalGlobalId(globalId))))
      ?.record;
  }

  async byIdentifier(owner: string, identifier: string): Promise<StoredRecord | undefined> {
    return this.byOwnerIdentifier.get(ownerKey(owner, identifier))?.record;
  }

  async bySentId(sentId: string): Promise<StoredRecord | undefined> {
    return this.bySent.get(sentId)?.record;
  }

  /** The globalId of a stored consignment (its record IRI), once the index is in. */
  async globalIdOf(consignment: string): Promise<string | undefined> {
    await this.ready();
    return this.entry(consignment)?.record.globalId;
  }

  entry(consignment: string): ConsignmentEntry | undefined {
    return this.byIri.get(consignment);
  }

  async entries(consignments: readonly string[]): Promise<ConsignmentEntry[]> {
    return consignments.flatMap((consignment) => this.byIri.get(consignment) ?? []);
  }

  /**
   * The lists in publication order that hold every consignment the candidates and the narrowing can
   * show, the shortest of three: the candidates' owners and locations, the consignments in the status,
   * those routed through the location. Merged lazily: a walk takes what it looks at.
   */
  consignmentsAfter(lists: CandidateLists, narrowing: Narrowing, afterSeq: number): Batch<ConsignmentEntry> {
    const sources: ConsignmentEntry[][][] = [
      [...lists.owners.map((owner) => this.byOwner.get(owner) ?? []), ...lists.locations.map((l) => this.byLocation.get(l) ?? [])],
    ];
    if (narrowing.status !== undefined) sources.push([this.byStatus.get(narrowing.status) ?? []]);
    if (narrowing.location !== undefined) sources.push([this.byLocation.get(narrowing.location) ?? []]);
    const size = (source: ConsignmentEntry[][]) => source.reduce((n, list) => n + list.length, 0);
    return merged(
      sources.reduce((best, source) => (size(source) < size(best) ? source : best)),
      afterSeq,
    );
  }

  updatedAfter(key: UpdateKey): Batch<ConsignmentEntry> {
    return this.byUpdate.from(key);
  }

  documentsAfter(owners: readonly string[], afterSeq: number): Batch<DocumentEntry> {
    return merged(
      owners.map((owner) => this.documentsByOwner.get(owner) ?? []),
      afterSeq,
    );
  }

  async named(id: string): Promise<ConsignmentEntry[]> {
    const byIds = [this.byGlobal.get(id), this.bySent.get(id)].filter((e) => e !== undefined);
    const byIdentifier = this.withIdentifier.get(id) ?? [];
    return [...new Set([...byIds, ...byIdentifier])];
  }

  /**
   * A write was committed (the ingest calls this right after its commit, under its lock): its record, route
   * and document, `updated` set to `at`. Applied at once (a crash takes this memory with the write).
   */
  async accepted(accepted: Accepted, at: string, durable?: Promise<void>): Promise<void> {
    // Refused by the store: here but not there, so read again before the next write decides (as at a restart).
    durable?.catch(() => {
      if (!this.records) return;
      this.previous = Promise.allSettled([this.records, this.rest]);
      this.records = this.rest = undefined;
    });
    const { consignment: record, document } = accepted;
    const known = this.byIri.get(record.consignment);
    const entry = this.put({
      ...record,
      // Stamps (core/rdf/date-times.ts): the form a restart reads back from the record's literal.
      created: known?.record.created ?? record.created,
      updated: at,
    });
    if (record.routes !== undefined) this.route(entry, new Set(record.routes), true);
    if (document && !this.documents.has(document.iri)) {
      this.documents.add(document.iri);
      insert(listOf(this.documentsByOwner, entry.owner), { seq: document.seq, iri: document.iri, consignment: entry });
    }
  }

  /**
   * A record as read or written: a new entry, listed by owner in publication order, or the record an
   * existing one now has (an Update may change its identifier). `sorted` as for route().
   */
  put(record: StoredRecord, sorted = true): ConsignmentEntry {
    let entry = this.byIri.get(record.consignment);
    if (entry) {
      const previous = entry.record;
      if (previous.identifier !== record.identifier) {
        this.byOwnerIdentifier.delete(ownerKey(previous.owner, previous.identifier));
        const others = (this.withIdentifier.get(previous.identifier) ?? []).filter((e) => e !== entry);
        if (others.length > 0) this.withIdentifier.set(previous.identifier, others);
        else this.withIdentifier.delete(previous.identifier);
        listOf(this.withIdentifier, record.identifier).push(entry);
      }
      if (previous.status !== record.status) {
        remove(this.byStatus.get(previous.status), entry);
        insert(listOf(this.byStatus, record.status), entry);
      }
      if (previous.sentId !== record.sentId) {
        if (previous.sentId !== undefined && this.bySent.get(previous.sentId) === entry) this.bySent.delete(previous.sentId);
        if (record.sentId !== undefined) this.bySent.set(record.sentId, entry);
      }
      const updatedMs = timeOf(record.updated);
      if (updatedMs !== entry.updatedMs) {
        this.byUpdate.remove(entry);
        entry.updatedMs = updatedMs;
        this.byUpdate.add(entry, true);
      }
      entry.record = record;
    } else {
      entry = {
        seq: record.seq,
        iri: record.consignment,
        owner: record.owner,
        globalId: record.globalId,
        locations: new Set(),
        updatedMs: timeOf(record.updated),
        record,
      };
      this.byUpdate.add(entry, sorted);
      if (sorted) insert(listOf(this.byStatus, record.status), entry);
      else listOf(this.byStatus, record.status).push(entry);
      this.byIri.set(entry.iri, entry);
      this.byGlobal.set(entry.globalId, entry);
      const canonical = canonicalGlobalId(entry.globalId);
      if (canonical !== entry.globalId && !this.legacyGlobal.has(canonical)) this.legacyGlobal.set(canonical, entry);
      listOf(this.withIdentifier, record.identifier).push(entry);
      if (record.sentId !== undefined) this.bySent.set(record.sentId, entry);
      if (sorted) insert(listOf(this.byOwner, entry.owner), entry);
      else listOf(this.byOwner, entry.owner).push(entry);
    }
    this.byOwnerIdentifier.set(ownerKey(record.owner, record.identifier), entry);
    return entry;
  }

  /**
   * Sets the entry's route locations, moving it between location lists. `sorted`: insert in order
   * (a write); a load appends and sorts once at its end (inserting 100k entries one by one is quadratic).
   */
  route(entry: ConsignmentEntry, locations: Set<string>, sorted: boolean): void {
    for (const old of entry.locations) if (!locations.has(old)) remove(this.byLocation.get(old), entry);
    for (const location of locations) {
      if (entry.locations.has(location)) continue;
      if (sorted) insert(listOf(this.byLocation, location), entry);
      else listOf(this.byLocation, location).push(entry);
    }
    entry.locations = locations;
  }

  /** A route location the load read, for a record that did not carry its route (a write since sets it whole). */
  loadedLocation(consignment: string, location: string): void {
    const entry = this.byIri.get(consignment);
    if (!entry || entry.record.routes !== undefined || entry.locations.has(location)) return;
    entry.locations.add(location);
    listOf(this.byLocation, location).push(entry);
  }

  /** A document the load read: listed unless a write listed it first. Lists are sorted by `sortLists`. */
  loadedDocument(seq: number, document: string, consignment: string): void {
    const entry = this.byIri.get(consignment);
    if (!entry || this.documents.has(document)) return;
    this.documents.add(document);
    listOf(this.documentsByOwner, entry.owner).push({ seq, iri: document, consignment: entry });
  }

  /** Puts every list in publication order again after a load appended to them. */
  sortLists(): void {
    for (const lists of [this.byOwner, this.byLocation, this.byStatus, this.documentsByOwner]) {
      for (const entries of lists.values()) (entries as { seq: number }[]).sort((a, b) => a.seq - b.seq);
    }
    this.byUpdate.sort();
  }

  get size(): number {
    return this.byIri.size;
  }

  /** Empties the index before a load reads it again (after a failed one). */
  clear(): void {
    const lookups = [this.byIri, this.byGlobal, this.legacyGlobal, this.byOwnerIdentifier, this.withIdentifier, this.bySent];
    for (const map of [...lookups, this.byOwner, this.byLocation, this.byStatus, this.documentsByOwner]) map.clear();
    this.documents.clear();
    this.byUpdate.clear();
  }

  /** A document of the consignment by its identifier, with its latest revision number (a store query: documents' revisions are not held). */
  document(consignment: string, identifier: string): Promise<{ document: string; revision: number } | undefined> {
    return documentByIdentifier(this.store, this.queries, consignment, identifier);
  }

  maxSeq(): Promise<number> {
    return storedMaxSeq(this.store, this.queries);
  }
}
