import type pg from 'pg';
import type { Accepted } from '../../core/catalog/accepted.js';
import type {
  CandidateLists,
  ConsignmentCatalog,
  ConsignmentEntry,
  DocumentEntry,
  Narrowing,
} from '../../core/ports/consignment-catalog.js';
import { canonicalGlobalId } from '../../core/catalog/identities.js';
import { entryOf, putValues, type CatalogRow } from './catalog-rows.js';
import type { StoredRecord } from '../../core/catalog/records.js';
import { documentByIdentifier, storedMaxSeq } from '../../core/catalog/stored-lookups.js';
import type { UpdateKey } from '../../core/catalog/update-order.js';
import type { QueryBank } from '../../core/queries/query-bank.js';
import type { QuadStore } from '../../core/ports/quad-store.js';
import { catchUp, readBack } from './catalog-catch-up.js';
import { statement } from './statements.js';

/**
 * The consignment catalog in PostgreSQL, for a replica set (docs/replicas.md): the records, their
 * routes and documents as tables (deploy/postgres/schema.sql), so a replica's memory does not grow
 * with the consignments and a new writer reads nothing of them at start. Lookups are one indexed
 * query; a list walk asks for a slice at a time, each list read in its index order as far as the
 * slice goes. The ingest tells it each accepted write at its commit; the row is written once the store
 * has applied the write, in one statement (catalog-put.sql) that also records how far the catalog has
 * the store, and the client is answered after that. A writer that died between the two left the
 * catalog behind the store, never ahead, and the next one catches up on the change journal before it
 * takes a write (catalog-catch-up.ts).
 */
export class PostgresCatalog implements ConsignmentCatalog {
  private caughtUp: Promise<void> | undefined;
  /** Records accepted whose rows are not written yet (their store commits not yet applied): the writes in flight. */
  private readonly pending = new Map<string, StoredRecord>();
  /** The rows' writes, one after another in commit order. */
  private keeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: pg.Pool,
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    /** The sequence number handed out last: an accepted write's is at most this when it committed. */
    private readonly sequenceHigh: () => number,
    /** Told when an accepted write could not be written here: this writer's catalog no longer follows the store it committed to. */
    private readonly diverged: (reason: string) => void,
    /** Runs a row's write until PostgreSQL answers it (a short outage waits rather than stopping the writer). */
    private readonly retry: <T>(write: () => Promise<T>, what: string) => Promise<T> = (write) => write(),
    /** Throws when the write may no longer be acknowledged (lease-acknowledgement.ts): its row is in, under the fence. */
    private readonly acknowledgeable: () => void = () => undefined,
  ) {}

  startLoading(): void {
    this.levelled().catch(() => undefined);
  }

  /**
   * A writer that cannot confirm its lease decides no new write: refused at once (503), rather than
   * after a statement's bound on a cut route or behind rows that wait for PostgreSQL.
   */
  async ready(): Promise<void> {
    this.acknowledgeable();
    await this.levelled();
  }

  complete(): Promise<void> {
    return this.levelled();
  }

  /** The catalog brought level with the store (once; tried again after a failure). */
  private levelled(): Promise<void> {
    if (!this.caughtUp) {
      const catching = catchUp(this.pool, this.store, this.queries);
      this.caughtUp = catching;
      catching.catch(() => {
        if (this.caughtUp === catching) this.caughtUp = undefined;
      });
    }
    return this.caughtUp;
  }

  private async rows(name: string, values: unknown[]): Promise<CatalogRow[]> {
    return (await this.pool.query<CatalogRow>(statement(name), values)).rows;
  }

  async byGlobalId(globalId: string): Promise<StoredRecord | undefined> {
    const canonical = canonicalGlobalId(globalId);
    for (const record of this.pending.values()) if (record.globalId === globalId || record.globalId === canonical) return record;
    const [row] = await this.rows('catalog-by-global-id', [globalId, canonical]);
    return row && (this.pending.get(row.record.consignment) ?? row.record);
  }

  async byIdentifier(owner: string, identifier: string): Promise<StoredRecord | undefined> {
    for (const record of this.pending.values()) if (record.owner === owner && record.identifier === identifier) return record;
    const [row] = await this.rows('catalog-by-identifier', [owner, identifier]);
    // A write on its way here may have given the consignment another identifier.
    return row && !this.pending.has(row.record.consignment) ? row.record : undefined;
  }

  async bySentId(sentId: string): Promise<StoredRecord | undefined> {
    for (const record of this.pending.values()) if (record.sentId === sentId) return record;
    const [row] = await this.rows('catalog-by-sent-id', [sentId]);
    // A write on its way here may have given the consignment another sent id, or none.
    return row && !this.pending.has(row.record.consignment) ? row.record : undefined;
  }

  async globalIdOf(consignment: string): Promise<string | undefined> {
    const [row] = await this.rows('catalog-entries', [[consignment]]);
    return row?.record.globalId;
  }

  /**
   * Held in `pending` for the decisions that follow at once, and written here once the store has the
   * write, in commit order: a writer killed before its write reached the store leaves no row of it.
   */
  accepted(accepted: Accepted, at: string, durable: Promise<void>): Promise<void> {
    const { consignment, document } = accepted;
    const record = { ...consignment, updated: at };
    const applied = this.sequenceHigh();
    this.pending.set(record.consignment, record);
    // Refused by the store: no longer a write in flight, at once rather than once the rows before it
    // are written (in an outage those wait for PostgreSQL, and a retry of this write meanwhile found
    // its own globalId taken).
    durable.catch(() => {
      if (this.pending.get(record.consignment) === record) this.pending.delete(record.consignment);
    });
    const kept = this.keeping.then(async () => {
      try {
        await durable;
      } catch {
        // The store may hold it all the same (a lease lost while the update was out): the row is what
        // the store holds, read back in commit order; a catch-up does it when the store cannot answer.
        await this.retry(
          () => readBack(this.pool, this.store, this.queries, record.consignment, applied),
          "a refused write's catalog row",
        ).catch(() => {
          this.caughtUp = undefined;
        });
        return;
      }
      try {
        await this.retry(() => this.pool.query(statement('catalog-put'), putValues(record, document, applied)), "a write's catalog row");
      } catch (error) {
        // The store has the write: the next writer's catch-up brings the catalog level with it.
        this.diverged(`an accepted write could not be written to the catalog in PostgreSQL: ${(error as Error).message}`);
        throw error;
      }
    });
    this.keeping = kept.catch(() => undefined);
    return kept
      .finally(() => {
        if (this.pending.get(record.consignment) === record) this.pending.delete(record.consignment);
      })
      .then(() => this.acknowledgeable());
  }

  document(consignment: string, identifier: string): Promise<{ document: string; revision: number } | undefined> {
    return documentByIdentifier(this.store, this.queries, consignment, identifier);
  }

  maxSeq(): Promise<number> {
    return storedMaxSeq(this.store, this.queries);
  }

  async named(id: string): Promise<ConsignmentEntry[]> {
    return (await this.rows('catalog-named', [id])).map(entryOf);
  }

  async entries(consignments: readonly string[]): Promise<ConsignmentEntry[]> {
    if (consignments.length === 0) return [];
    return (await this.rows('catalog-entries', [consignments])).map(entryOf);
  }

  /** A location asked for narrows the walk to that location's list (every consignment a filter on it can show); a status, every list. */
  async consignmentsAfter(lists: CandidateLists, narrowing: Narrowing, afterSeq: number, count: number): Promise<ConsignmentEntry[]> {
    const { owners, locations } = narrowing.location === undefined ? lists : { owners: [], locations: [narrowing.location] };
    if (owners.length === 0 && locations.length === 0) return [];
    return (await this.rows('catalog-after', [owners, locations, afterSeq, count, narrowing.status ?? null])).map(entryOf);
  }

  async updatedAfter(key: UpdateKey, count: number): Promise<ConsignmentEntry[]> {
    const ms = Number.isFinite(key.ms) ? key.ms : -Number.MAX_VALUE;
    return (await this.rows('catalog-updated-after', [ms, key.seq, count])).map(entryOf);
  }

  async documentsAfter(owners: readonly string[], afterSeq: number, count: number): Promise<DocumentEntry[]> {
    if (owners.length === 0) return [];
    const { rows } = await this.pool.query<CatalogRow & { document_seq: string; document: string }>(statement('catalog-documents-after'), [
      owners,
      afterSeq,
      count,
    ]);
    return rows.map((row) => ({ seq: Number(row.document_seq), iri: row.document, consignment: entryOf(row) }));
  }
}
