import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, str } from '../queries/query-bank.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { Bindings, ChangeOp, QuadStore, QueryStore } from '../store/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import { pagesInOrder } from '../util/pages-in-order.js';
import { canonicalGlobalId } from './identities.js';
import { seqRanges } from './record-pages.js';

/** A consignment's bookkeeping in the metadata graph. */
export interface ConsignmentRecord {
  consignment: string;
  owner: string;
  globalId: string;
  identifier: string;
  stateGraph: string;
  created: string;
  status: string;
  /** The sequence number of its Create. */
  seq: number;
  /**
   * Its route locations (svc:routeLocation), where known: a record read from its start record literal
   * or written since, not one read the long way (the read index then reads the routes itself).
   */
  routes?: readonly string[];
}

/** A record as the start's read gives it: the write path's fields, and the read index's updated. */
export interface StoredRecord extends ConsignmentRecord {
  updated: string;
}

/** Every record the store held, and how many it counted before reading them (the caller's check). */
export interface RecordsRead {
  records: StoredRecord[];
  count: number;
}

/** How a start record writes the route: `r:` and the locations, each percent-encoded, separated by commas. */
const ROUTE_FIELD = 'r:';

const packedRoute = (routes: readonly string[]): string => ROUTE_FIELD + routes.map(encodeURIComponent).join(',');

function unpackedRoute(field: string): string[] {
  if (!field.startsWith(ROUTE_FIELD)) throw new Error(`A consignment record's route field does not start with ${ROUTE_FIELD}`);
  const text = field.slice(ROUTE_FIELD.length);
  return text === '' ? [] : text.split(',').map(decodeURIComponent);
}

/**
 * A record from its packed form (consignment-records-page.rq, packedRecord): nine fields, the strings
 * percent-encoded, and in a start record written since it carried the route, the route as a tenth.
 */
function unpacked(text: string | undefined): StoredRecord {
  const fields = text?.split(' ') ?? [];
  if (fields.length !== 9 && fields.length !== 10) throw new Error(`A consignment record row has ${fields.length} fields, not 9 or 10`);
  const [seq, consignment, owner, identifier, globalId, stateGraph, created, updated, status, route] = fields;
  const record: StoredRecord = {
    seq: Number(seq), consignment, owner, identifier: decodeURIComponent(identifier), globalId: decodeURIComponent(globalId),
    stateGraph, created, updated, status: decodeURIComponent(status),
  };
  if (route !== undefined) record.routes = unpackedRoute(route);
  return record;
}

/**
 * An xsd:dateTime as the embedded store gives it back (its canonical form: no trailing zeros in the
 * fraction of a second, no fraction if it is zero), from the form the node writes (toISOString).
 */
const canonicalDateTime = (iso: string): string => iso.replace(/\.(\d*?)0+Z$/, (_, kept: string) => (kept ? `.${kept}Z` : 'Z'));

/**
 * The packed form consignment-records-page.rq writes, made in the node, with the times in the form
 * the embedded store's read gives them (the literal is read instead of that read there), and the
 * route where the record knows it, so that a start reads no route either (at 100k consignments
 * policy/route-locations.rq alone took ~1 s).
 */
export function packedRecord(record: StoredRecord): string {
  const { seq, consignment, owner, identifier, globalId, stateGraph, created, updated, status, routes } = record;
  const fields = [
    seq, consignment, owner, encodeURIComponent(identifier), encodeURIComponent(globalId), stateGraph,
    canonicalDateTime(created), canonicalDateTime(updated), encodeURIComponent(status),
  ];
  if (routes !== undefined) fields.push(packedRoute(routes));
  return fields.join(' ');
}

/**
 * The record as one literal (svc:startRecord), replacing the one it had unless it is `created` now:
 * written with every accepted activity, in the commit that changes the record (each one sets its
 * `updated`), so that a start reads one pattern a record instead of joining nine
 * (consignment-start-records.rq). A Create sends no delete: on a SPARQL server it would split the
 * activity's one INSERT DATA in two.
 */
export function startRecordOps(record: ConsignmentRecord, updated: string, created = false): ChangeOp[] {
  const insert: ChangeOp = { op: 'insert', nquads: new NQuadsBuilder(GRAPHS.metadata).literal(record.consignment, svc('startRecord'), packedRecord({ ...record, updated })).toString() };
  if (created) return [insert];
  return [{ op: 'deleteMatching', subject: iriToString(record.consignment), predicate: iriToString(svc('startRecord')), object: null, graph: GRAPHS.metadata }, insert];
}

/**
 * Every record from its svc:startRecord literal, in one query (a store without a row cap), or
 * undefined unless there is exactly one for each of the `count` records: a data dir written before
 * the literals, or imported from one, is read the long way.
 */
async function startRecords(store: QuadStore, queries: QueryBank, count: number): Promise<StoredRecord[] | undefined> {
  const rows = await store.select(queries.text('ingest/consignment-start-records'));
  if (rows.length !== count) return undefined;
  const records = rows.map((row) => unpacked(row.get('record')?.value));
  return new Set(records.map((r) => r.consignment)).size === count ? records : undefined;
}

/**
 * Reads every record in pages by the sequence number of its Create, two pages in flight so the node
 * reads one answer while the server writes the next: on a SPARQL server no answer grows with the
 * store or exceeds its row cap, and no ORDER BY or OFFSET makes the server sort or skip. A store
 * without a cap (the embedded one) is read in one range unless `pageSeqs` is given (seqRanges).
 */
export async function readRecords(store: QuadStore, queries: QueryBank, pageSeqs = store.rowCap): Promise<RecordsRead> {
  // Counted before the highest number is read: a record counted then has a number the pages reach.
  const [countRow] = await store.select(queries.text('ingest/consignment-count'));
  const count = Number(countRow?.get('count')?.value ?? 0);
  await nextTurn();
  const packed = pageSeqs === undefined ? await startRecords(store, queries, count) : undefined;
  if (packed) return { records: packed, count };
  const { starts, size } = await seqRanges(pageSeqs, async () => {
    const [maxRow] = await store.select(queries.text('ingest/consignment-seq-max'));
    return Number(maxRow?.get('max')?.value ?? 0);
  });
  const records: StoredRecord[] = [];
  const page = (after: number) => store.select(queries.bind('ingest/consignment-records-page', { after: int(after), upto: int(after + size) }));
  await pagesInOrder(starts, page, 2, (rows) => {
    for (const row of rows) records.push(unpacked(row.get('record')?.value));
  });
  return { records, count };
}

const ownerKey = (owner: string, identifier: string): string => `${owner}\n${identifier}`;

/**
 * The consignment records the write path decides on, held in memory: read from the metadata graph
 * once at start, then kept in step by the ingest, which is the only writer of these fields and tells
 * the index after each commit (under its lock). Looking a record up costs a map access instead of two
 * SPARQL queries under the lock on every activity.
 */
export class ConsignmentRecords {
  private readonly byGlobal = new Map<string, ConsignmentRecord>();
  private readonly byOwnerIdentifier = new Map<string, ConsignmentRecord>();
  /** Records stored before globalIds were kept canonical (identities.ts), by their canonical form; the first one wins. */
  private readonly legacyGlobal = new Map<string, ConsignmentRecord>();

  private loading: Promise<void> | undefined;
  /** Whether the load keeps what it read for the read index (keepLoaded), and what it kept until taken. */
  private keep = false;
  private kept: RecordsRead | undefined;
  /** Writes remembered since start: a read that saw one come is not kept. */
  private writes = 0;

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  /**
   * Starts reading the records without waiting for them: only writes need them, so the node answers
   * reads while they load (at 100k on an external store that read takes seconds). ready() waits.
   */
  startLoading(): void {
    // From the next turn: the node first finishes starting and answers what is waiting.
    this.loading = nextTurn().then(() => this.load());
    // Kept for ready(); a failure is told to every write that waits, not as an unhandled rejection.
    this.loading.catch(() => undefined);
  }

  /** Resolves once the records are read (at once if loading never started: load() was awaited). */
  async ready(): Promise<void> {
    await this.loading;
  }

  /** Reads every record (readRecords), and checks it found as many as the store counts. */
  async load(): Promise<void> {
    const writes = this.writes;
    const read = await readRecords(this.store, this.queries);
    await nextTurn();
    this.byGlobal.clear();
    this.byOwnerIdentifier.clear();
    this.legacyGlobal.clear();
    // The write path's own objects of the strings just read: the read index keeps the rows themselves.
    for (const { consignment, owner, identifier, globalId, stateGraph, created, status, seq, routes } of read.records) {
      const record: ConsignmentRecord = { consignment, owner, identifier, globalId, stateGraph, created, status, seq };
      if (routes !== undefined) record.routes = routes;
      this.put(record);
    }
    // A record without a sequence number, or a server that cut an answer short, shows here.
    if (this.byGlobal.size !== read.count) throw new Error(`The store lists ${read.count} consignment records but the paged read found ${this.byGlobal.size}`);
    // Kept only if no write was remembered while reading (none is from the ingest: its writes wait for ready()).
    if (this.keep && this.writes === writes) this.kept = read;
    this.keep = false;
  }

  /**
   * Asks the load (the one under way or the next) to keep what it read, seq and updated included, for
   * one taker: the read index builds its entries from it instead of reading every record again.
   */
  keepLoaded(): void {
    this.keep = true;
  }

  /**
   * What the load read, once, and only while it is still what the store holds: undefined when nothing
   * was kept, it was taken already, or a write was remembered since (the taker then reads the store).
   */
  takeLoaded(): RecordsRead | undefined {
    const kept = this.kept;
    this.kept = undefined;
    return kept;
  }

  byGlobalId(globalId: string): ConsignmentRecord | undefined {
    return this.byGlobal.get(globalId) ?? (this.legacyGlobal.size === 0 ? undefined : this.legacyGlobal.get(canonicalGlobalId(globalId)));
  }

  byIdentifier(owner: string, identifier: string): ConsignmentRecord | undefined {
    return this.byOwnerIdentifier.get(ownerKey(owner, identifier));
  }

  /** A record as it is after a commit: new, re-identified by an Update, or with a new status. */
  remember(next: ConsignmentRecord): void {
    this.writes += 1;
    // The rows read at start no longer hold every record as it is: released, and not handed over.
    this.kept = undefined;
    this.put(next);
  }

  private put(next: ConsignmentRecord): void {
    const previous = this.byGlobal.get(next.globalId);
    if (previous) this.byOwnerIdentifier.delete(ownerKey(previous.owner, previous.identifier));
    this.byGlobal.set(next.globalId, next);
    this.byOwnerIdentifier.set(ownerKey(next.owner, next.identifier), next);
    const canonical = canonicalGlobalId(next.globalId);
    if (canonical !== next.globalId && !this.legacyGlobal.has(canonical)) this.legacyGlobal.set(canonical, next);
  }

  async document(consignment: string, identifier: string): Promise<{ document: string; revision: number } | undefined> {
    const [row] = await this.store.select(this.queries.bind('ingest/document-by-identifier', { consignment: iri(consignment), identifier: str(identifier) }));
    return row ? { document: row.get('document')!.value, revision: Number(row.get('revision')!.value) } : undefined;
  }

  /** The highest sequence number handed out: system events in the activity log have them too. */
  async maxSeq(): Promise<number> {
    const highest = async (store: QueryStore): Promise<number> => {
      const [row] = await store.select(this.queries.text('ingest/max-seq'));
      const max = row?.get('max');
      return max ? Number(max.value) : 0;
    };
    const { activityLog } = this.store;
    return Math.max(await highest(this.store), activityLog === this.store ? 0 : await highest(activityLog));
  }
}
