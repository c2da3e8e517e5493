import { seqRanges } from './record-pages.js';
import { pagesInOrder } from '../util/pages-in-order.js';
import { hasLength, type Tuple } from '../util/tuple.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../ports/quad-store.js';

/**
 * One page of the read index's load after its records (core/catalog/records.ts readRecords): the routes of
 * the consignments created in a range of sequence numbers, and the documents registered in it.
 */
export interface IndexPage {
  routes: { consignment: string; location: string }[];
  documents: { seq: number; document: string; consignment: string }[];
}

function packed<N extends number>(row: Bindings, name: string, count: N): Tuple<string, N> {
  const fields = row.get(name)?.value.split(' ') ?? [];
  if (!hasLength(fields, count)) throw new Error(`A ${name} row of the read index has ${fields.length} fields, not ${count}`);
  return fields;
}

/**
 * Reads every route location (unless `routes` is false: the records carried them) and document in
 * ranges of sequence numbers, two ranges in flight, handing each page to `take` in order: on a SPARQL
 * server no answer grows with the store, and the server scans an index instead of writing every row in
 * one answer (on a large store the one unpaged records query runs past Virtuoso's time limit:
 * bench/results/2026-12-08-comment-figures.md). A store without a row cap (the embedded one) is read in
 * one range unless `pageSeqs` is given.
 */
export async function readIndexPages(
  store: QuadStore,
  queries: QueryBank,
  take: (page: IndexPage) => void | Promise<void>,
  options: { pageSeqs?: number; routes?: boolean } = {},
): Promise<void> {
  const { pageSeqs = store.rowCap, routes: withRoutes = true } = options;
  const { starts, size } = await seqRanges(pageSeqs, async () => {
    const [maxRow] = await store.select(queries.text('policy/index-seq-max'));
    return Number(maxRow?.get('max')?.value ?? 0);
  });
  const read = async (after: number): Promise<IndexPage> => {
    const range = { after: int(after), upto: int(after + size) };
    // In one range, every location: the range's join on the records' numbers would only cost.
    const routesQuery = !withRoutes
      ? undefined
      : pageSeqs === undefined
        ? queries.text('policy/route-locations')
        : queries.bind('policy/route-locations-page', range);
    const [routes, documents] = await Promise.all([
      routesQuery === undefined ? [] : store.select(routesQuery),
      store.select(queries.bind('policy/document-order-page', range)),
    ]);
    return {
      routes: routes.map((row) => {
        const [consignment, location] = packed(row, 'route', 2);
        return { consignment, location: decodeURIComponent(location) };
      }),
      documents: documents.map((row) => {
        const [seq, document, consignment] = packed(row, 'entry', 3);
        return { seq: Number(seq), document, consignment };
      }),
    };
  };
  await pagesInOrder(starts, read, 2, take);
}
