import type { QueryBank } from '../queries/query-bank.js';
import { iri, str } from '../queries/query-bank.js';
import type { QuadStore, QueryStore } from '../ports/quad-store.js';

/** A document of the consignment by its identifier, with its latest revision number: a store query, whichever layer holds the catalog (documents' revisions are not held). */
export async function documentByIdentifier(
  store: QuadStore,
  queries: QueryBank,
  consignment: string,
  identifier: string,
): Promise<{ document: string; revision: number } | undefined> {
  const [row] = await store.select(
    queries.bind('ingest/document-by-identifier', { consignment: iri(consignment), identifier: str(identifier) }),
  );
  return row ? { document: row.get('document')!.value, revision: Number(row.get('revision')!.value) } : undefined;
}

/** The highest sequence number handed out: system events in the activity log have them too. */
export async function storedMaxSeq(store: QuadStore, queries: QueryBank): Promise<number> {
  const highest = async (from: QueryStore): Promise<number> => {
    const [row] = await from.select(queries.text('ingest/max-seq'));
    const max = row?.get('max');
    return max ? Number(max.value) : 0;
  };
  const { activityLog } = store;
  return Math.max(await highest(store), activityLog === store ? 0 : await highest(activityLog));
}
