import type { Accepted } from '../catalog/accepted.js';
import type { ConsignmentRecord, StoredRecord } from '../catalog/records.js';
import type { UpdateKey } from '../catalog/update-order.js';

/**
 * A consignment as the catalog gives it: its record, its route for the coverage rule (core/policy/coverage.ts)
 * and the list filters, and when it last changed (its record's `updated`, as a number) for update order.
 */
export interface ConsignmentEntry {
  seq: number;
  iri: string;
  owner: string;
  globalId: string;
  locations: Set<string>;
  updatedMs: number;
  record: StoredRecord;
}

export interface DocumentEntry {
  seq: number;
  iri: string;
  consignment: ConsignmentEntry;
}

/** The consignments a caller's grants name (and more, which the coverage rule then leaves out): its owners' and those routed through its locations. */
export interface CandidateLists {
  owners: readonly string[];
  locations: readonly string[];
}

/** What a filtered list asks for, which a source may use to walk fewer entries than the lists hold. */
export interface Narrowing {
  status?: string;
  location?: string;
}

/** Entries in order, all at once or as many as asked for: a memory index gives them lazily, a table a batch at a time. */
export type Batch<T> = Iterable<T> | Promise<Iterable<T>>;

/**
 * The node's consignments as the write path decides on them (a record by globalId, by owner +
 * identifier) and the read path lists, finds and checks coverage over (in publication order, by the
 * ids a consignment answers to). One owner of the records, two layers: in memory for a single node
 * (memory-consignment-catalog.ts), in PostgreSQL for a replica set (adapters/postgres/postgres-catalog.ts), where no
 * replica's memory grows with the consignments. The ingest, the one writer of records, tells it each
 * accepted write right after its commit, under its lock, so a read never asks the store to catch up.
 */
export interface ConsignmentCatalog {
  /** Starts what ready() and complete() wait for, without waiting. */
  startLoading(): void;
  /** Resolves once writes may decide on it; a failure is told to the waiter and tried again by the next. */
  ready(): Promise<void>;
  /** Resolves once reads may list over it too. */
  complete(): Promise<void>;
  byGlobalId(globalId: string): Promise<ConsignmentRecord | undefined>;
  /** The record of `owner`'s consignment with this identifier (identifiers are unique per publisher only). */
  byIdentifier(owner: string, identifier: string): Promise<ConsignmentRecord | undefined>;
  /** The record of the consignment whose root id was sent as this (unique across the node, docs/decisions.md "Sent ids"). */
  bySentId(sentId: string): Promise<ConsignmentRecord | undefined>;
  globalIdOf(consignment: string): Promise<string | undefined>;
  /**
   * A write committed (under the ingest's lock): the record as it left it, its `updated` set to `at`,
   * its route where it set one, a document it registered. Decisions made after this call see it at
   * once. The answer resolves once it is kept for good, after `durable` (the store has the write):
   * the ingest answers the client only then.
   */
  accepted(accepted: Accepted, at: string, durable: Promise<void>): Promise<void>;
  /** A document of the consignment by its identifier, with its latest revision number. */
  document(consignment: string, identifier: string): Promise<{ document: string; revision: number } | undefined>;
  /** The highest sequence number handed out. */
  maxSeq(): Promise<number>;
  /** The consignments an id names as globalId, as the root id sent beside it, or as a publisher's identifier. */
  named(id: string): Promise<ConsignmentEntry[]>;
  /** The entries of these record IRIs that exist, in any order. */
  entries(consignments: readonly string[]): Promise<ConsignmentEntry[]>;
  /**
   * Consignments published after `afterSeq`, in that order, among `lists`; the source may be narrowed
   * to what can meet `narrowing` (the caller still checks every entry). At least `count` unless
   * there are fewer.
   */
  consignmentsAfter(lists: CandidateLists, narrowing: Narrowing, afterSeq: number, count: number): Batch<ConsignmentEntry>;
  /** Consignments in update order (when each last changed, then publication order) after `key`. */
  updatedAfter(key: UpdateKey, count: number): Batch<ConsignmentEntry>;
  /** Documents of these owners' consignments registered after `afterSeq`, in that order. */
  documentsAfter(owners: readonly string[], afterSeq: number, count: number): Batch<DocumentEntry>;
}
