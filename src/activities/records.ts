import type { QueryBank } from '../queries/query-bank.js';
import { iri, str } from '../queries/query-bank.js';
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

function record(row: Bindings | undefined): ConsignmentRecord | undefined {
  if (!row) return undefined;
  const v = (name: string) => row.get(name)!.value;
  return {
    consignment: v('consignment'), owner: v('owner'), globalId: v('globalId'), identifier: v('identifier'),
    stateGraph: v('stateGraph'), created: v('created'), status: v('status'),
  };
}

/** Lookups the write path needs, over the whole store (writes are authorised separately). */
export class ConsignmentRecords {
  constructor(private readonly store: QuadStore, private readonly queries: QueryBank) {}

  async byGlobalId(globalId: string): Promise<ConsignmentRecord | undefined> {
    const rows = await this.store.select(this.queries.bind('ingest/consignment-by-global-id', { globalId: str(globalId) }));
    return record(rows[0]);
  }

  async byIdentifier(owner: string, identifier: string): Promise<ConsignmentRecord | undefined> {
    const rows = await this.store.select(this.queries.bind('ingest/consignment-by-identifier', { owner: iri(owner), identifier: str(identifier) }));
    return record(rows[0]);
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
