import type pg from 'pg';
import { readIndexPages } from '../../core/catalog/index-pages.js';
import { seqRanges } from '../../core/catalog/record-pages.js';
import { unpacked } from '../../core/catalog/records.js';
import { storedMaxSeq } from '../../core/catalog/stored-lookups.js';
import { ChangeJournal } from '../../core/changes/change-journal.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import { int, iri } from '../../core/queries/query-bank.js';
import type { QuadStore } from '../../core/ports/quad-store.js';
import { pagesInOrder } from '../../core/util/pages-in-order.js';
import { fillRowOf, putValues } from './catalog-rows.js';
import { statement } from './statements.js';

/** Sequence numbers a page of the first fill covers on a store without a row cap of its own. */
const FILL_PAGE_SEQS = 10_000;

/**
 * Brings the PostgreSQL catalog level with the store before a writer takes a write: the first time,
 * every record, route and document in pages (a replica set started on an existing data space); after
 * that, the writes the change journal holds after the catalog's `applied_seq`, which a writer that
 * died between its store commit and the catalog's left out (a handful at most). Both only add what
 * the store holds, so a catch-up cut short is done again by the next writer.
 */
export async function catchUp(pool: pg.Pool, store: QuadStore, queries: QueryBank): Promise<void> {
  const { rows } = await pool.query<{ applied_seq: string }>(statement('catalog-applied'));
  const applied = rows[0]?.applied_seq;
  if (applied === undefined) await fill(pool, store, queries);
  else await replayJournal(pool, store, queries, Number(applied));
}

/** The store's records, routes and documents, page by page: no page is held after it is written. */
async function fill(pool: pg.Pool, store: QuadStore, queries: QueryBank): Promise<void> {
  // Read first: nothing is written meanwhile (writes wait for the catalog), so the pages hold every number up to it.
  const high = await storedMaxSeq(store, queries);
  const pageSeqs = store.rowCap ?? FILL_PAGE_SEQS;
  const { starts, size } = await seqRanges(pageSeqs, async () => high);
  const page = (after: number) =>
    store.select(queries.bind('ingest/consignment-records-page', { after: int(after), upto: int(after + size) }));
  await pagesInOrder(starts, page, 2, async (rows) => {
    if (rows.length === 0) return;
    const records = rows.map((row) => fillRowOf(unpacked(row.get('record')?.value)));
    await pool.query(statement('catalog-fill-records'), [JSON.stringify(records)]);
  });
  await readIndexPages(
    store,
    queries,
    async ({ routes, documents }) => {
      if (routes.length > 0) {
        await pool.query(statement('catalog-fill-locations'), [JSON.stringify(routes)]);
        await pool.query(statement('catalog-fill-routes'), [[...new Set(routes.map((r) => r.consignment))]]);
      }
      if (documents.length > 0) {
        const rows = documents.map(({ seq, document, consignment }) => ({ iri: document, seq, consignment }));
        await pool.query(statement('catalog-fill-documents'), [JSON.stringify(rows)]);
      }
    },
    { pageSeqs, routes: true },
  );
  await pool.query(statement('catalog-mark'), [high]);
}

/** The consignments the journal's data entries after `applied` name, read again from the store: their records and documents. */
async function replayJournal(pool: pg.Pool, store: QuadStore, queries: QueryBank, applied: number): Promise<void> {
  const touched = new Set<string>();
  const max = await new ChangeJournal(store, queries).readAfter(applied, FILL_PAGE_SEQS, (entries) => {
    for (const entry of entries) if (entry.kind === 'data') touched.add(entry.consignment);
  });
  if (max <= applied) return;
  for (const consignment of touched) await readBack(pool, store, queries, consignment, max);
  await pool.query(statement('catalog-mark'), [max]);
}

/**
 * One consignment's row and documents as the store holds them (nothing when it holds no record of
 * it), with the catalog marked as having the store up to `applied`.
 */
export async function readBack(pool: pg.Pool, store: QuadStore, queries: QueryBank, consignment: string, applied: number): Promise<void> {
  const [recordRow] = await store.select(queries.bind('catalog/start-record', { consignment: iri(consignment) }));
  if (!recordRow) return;
  await pool.query(statement('catalog-put'), putValues(unpacked(recordRow.get('record')?.value), undefined, applied));
  const documents = await store.select(queries.bind('catalog/consignment-documents', { consignment: iri(consignment) }));
  const rows = documents.map((row) => {
    const [seq, document] = row.get('entry')!.value.split(' ');
    return { iri: document, seq: Number(seq), consignment };
  });
  if (rows.length > 0) await pool.query(statement('catalog-fill-documents'), [JSON.stringify(rows)]);
}
