import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, str } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import { pagesInOrder, seqRanges } from './record-pages.js';

/** A consignment's bookkeeping in the metadata graph. */
export interface ConsignmentRecord {
  consignment: string;
  owner: string;
  globalId: string;
  identifier: string;
  stateGraph: string;
  created: string;
  status: string;
}

/** A record from its packed row (consignment-records-page.rq): seven fields, the strings percent-encoded. */
function unpacked(row: Bindings): ConsignmentRecord {
  const fields = row.get('record')?.value.split(' ') ?? [];
  if (fields.length !== 7) throw new Error(`A consignment record row has ${fields.length} fields, not 7`);
  const [consignment, owner, identifier, globalId, stateGraph, created, status] = fields;
  return {
    consignment, owner, identifier: decodeURIComponent(identifier), globalId: decodeURIComponent(globalId),
    stateGraph, created, status: decodeURIComponent(status),
  };
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

  private loading: Promise<void> | undefined;

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  /**
   * Starts reading the records without waiting for them: only writes need them, so the node answers
   * reads while they load (at 100k on an external store that read takes seconds). ready() waits.
   */
  startLoading(): void {
    this.loading = this.load();
    // Kept for ready(); a failure is told to every write that waits, not as an unhandled rejection.
    this.loading.catch(() => undefined);
  }

  /** Resolves once the records are read (at once if loading never started: load() was awaited). */
  async ready(): Promise<void> {
    await this.loading;
  }

  /**
   * Reads every record in pages by the sequence number of its Create, two pages in flight so the
   * node reads one answer while the server writes the next: on a SPARQL server no answer grows with
   * the store or exceeds its row cap, and no ORDER BY or OFFSET makes the server sort or skip. The
   * embedded store has no cap and reads them in one range (seqRanges).
   */
  async load(): Promise<void> {
    const [[countRow], [maxRow]] = await Promise.all([
      this.store.select(this.queries.text('ingest/consignment-count')),
      this.store.select(this.queries.text('ingest/consignment-seq-max')),
    ]);
    const count = Number(countRow?.get('count')?.value ?? 0);
    const maxSeq = Number(maxRow?.get('max')?.value ?? 0);
    this.byGlobal.clear();
    this.byOwnerIdentifier.clear();
    const { starts, size } = seqRanges(maxSeq, this.store.rowCap);
    const page = (after: number) => this.store.select(this.queries.bind('ingest/consignment-records-page', { after: int(after), upto: int(after + size) }));
    await pagesInOrder(starts, page, 2, (rows) => {
      for (const row of rows) this.remember(unpacked(row));
    });
    // A record without a sequence number, or a server that cut an answer short, shows here.
    if (this.byGlobal.size !== count) throw new Error(`The store lists ${count} consignment records but the paged read found ${this.byGlobal.size}`);
  }

  byGlobalId(globalId: string): ConsignmentRecord | undefined {
    return this.byGlobal.get(globalId);
  }

  byIdentifier(owner: string, identifier: string): ConsignmentRecord | undefined {
    return this.byOwnerIdentifier.get(ownerKey(owner, identifier));
  }

  /** A record as it is after a commit: new, re-identified by an Update, or with a new status. */
  remember(next: ConsignmentRecord): void {
    const previous = this.byGlobal.get(next.globalId);
    if (previous) this.byOwnerIdentifier.delete(ownerKey(previous.owner, previous.identifier));
    this.byGlobal.set(next.globalId, next);
    this.byOwnerIdentifier.set(ownerKey(next.owner, next.identifier), next);
  }

  async document(consignment: string, identifier: string): Promise<{ document: string; revision: number } | undefined> {
    const [row] = await this.store.select(this.queries.bind('ingest/document-by-identifier', { consignment: iri(consignment), identifier: str(identifier) }));
    return row ? { document: row.get('document')!.value, revision: Number(row.get('revision')!.value) } : undefined;
  }

  async maxSeq(): Promise<number> {
    const [row] = await this.store.select(this.queries.text('ingest/max-seq'));
    const max = row?.get('max');
    return max ? Number(max.value) : 0;
  }
}
