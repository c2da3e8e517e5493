import type { QueryBank } from '../queries/query-bank.js';
import { int, iri, str } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';

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

function record(row: Bindings): ConsignmentRecord {
  const v = (name: string) => row.get(name)!.value;
  return {
    consignment: v('consignment'), owner: v('owner'), globalId: v('globalId'), identifier: v('identifier'),
    stateGraph: v('stateGraph'), created: v('created'), status: v('status'),
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

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  /**
   * Reads every record: in one answer when the store gives them all (the embedded store does), else
   * again in ordered pages, since a SPARQL server may cap its answers below what a query asks for.
   */
  async load(): Promise<void> {
    const [countRow] = await this.store.select(this.queries.text('ingest/consignment-count'));
    const count = Number(countRow?.get('count')?.value ?? 0);
    this.byGlobal.clear();
    this.byOwnerIdentifier.clear();
    const all = await this.store.select(this.queries.text('ingest/all-consignments'));
    if (all.length >= count) {
      for (const row of all) this.remember(record(row));
      return;
    }
    let loaded = 0;
    while (loaded < count) {
      const rows = await this.store.select(this.queries.bind('ingest/all-consignments-page', { limit: int(count - loaded), offset: int(loaded) }));
      if (rows.length === 0) throw new Error(`The store lists ${count} consignment records but answered only ${loaded}`);
      for (const row of rows) this.remember(record(row));
      loaded += rows.length;
    }
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
