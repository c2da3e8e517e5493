import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import { inSlices } from '../util/slices.js';
import { readIndexPages, type IndexPage } from './index-pages.js';
import { readRecords, type StoredRecord } from './records.js';

export interface IndexLoadOptions {
  /** Sequence numbers a page of the load covers (index-pages.ts); a store's row cap by default. */
  pageSeqs?: number;
}

/** What the load fills: the consignment index, as far as its load needs it (so the index imports the load, not both ways). */
export interface LoadTarget<Entry> {
  routed: boolean;
  readonly size: number;
  clear(): void;
  put(record: StoredRecord, sorted: boolean): Entry;
  route(entry: Entry, locations: Set<string>, sorted: boolean): void;
  loadedLocation(consignment: string, location: string): void;
  loadedDocument(seq: number, document: string, consignment: string): void;
  sortLists(): void;
}

/**
 * The consignment index's load from the store, in two steps: the records (what the write path decides
 * on; writes wait for them), then the routes of records that did not carry theirs and every document
 * (reads wait for those too). Each query starts on a turn of its own and what it read is put in the
 * index in slices of a few milliseconds (inSlices): on the embedded store a query is one synchronous
 * block, and a large store's entries put in one piece held every request (figures:
 * bench/results/2026-12-08-comment-figures.md).
 */
export const loadIndex = {
  /**
   * Every record (readRecords: their start literals, or pages under a row cap), checked against the
   * store's count. No write commits meanwhile: writes wait for this step.
   */
  async records<Entry>(index: LoadTarget<Entry>, store: QuadStore, queries: QueryBank, options: IndexLoadOptions): Promise<void> {
    await nextTurn();
    index.clear();
    const read = await readRecords(store, queries, options.pageSeqs);
    // Start records written since they carry the route: when every one did, no route is read.
    index.routed = read.records.every((record) => record.routes !== undefined);
    await inSlices(read.records, (record) => {
      const entry = index.put(record, false);
      if (record.routes !== undefined) index.route(entry, new Set(record.routes), false);
    });
    index.sortLists();
    // A record without a sequence number, or a server that cut an answer short, shows here.
    if (index.size !== read.count)
      throw new Error(`The store lists ${read.count} consignment records but the paged read found ${index.size}`);
  },

  /**
   * The routes (unless every record carried its own) and documents, in pages of sequence numbers. Writes
   * go on meanwhile and are in the index already: a record a write set the route of keeps it, and a
   * document a write listed is not listed twice, so what a page read before the write cannot undo it.
   * A document comes after its consignment's Create in sequence, but documents are listed at the end
   * all the same, so no page order can leave one out.
   */
  async rest<Entry>(index: LoadTarget<Entry>, store: QuadStore, queries: QueryBank, options: IndexLoadOptions): Promise<void> {
    const pages: IndexPage[] = [];
    await nextTurn();
    await readIndexPages(
      store,
      queries,
      (page) => {
        pages.push(page);
      },
      { pageSeqs: options.pageSeqs, routes: !index.routed },
    );
    await inSlices(
      pages.flatMap((page) => page.routes),
      ({ consignment, location }) => index.loadedLocation(consignment, location),
    );
    await inSlices(
      pages.flatMap((page) => page.documents),
      ({ seq, document, consignment }) => index.loadedDocument(seq, document, consignment),
    );
    index.sortLists();
  },
};
