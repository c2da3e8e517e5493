import type { Change } from '../store/quad-store.js';

/** What a write counts against: its organisation's totals, and for a graph on a consignment, that consignment's. */
export interface Charge {
  kind: 'charge';
  organisation: string;
  /** What the commit adds to each count; negative gives back (a withdrawn policy). Bytes are measured by the gate. */
  consignments?: number;
  graphs?: number;
  policies?: number;
  /** A write to a consignment (record IRI): counted for its owner, or as another organisation's contribution. */
  consignment?: { record: string; owner: string };
}

/**
 * A commit carries a charge in its notes when an organisation asked for it (the inbox, policies, the
 * notification endpoint): the gate applies the quotas and the node's capacity to it. A commit with
 * none is the node's own bookkeeping of work already accepted (deliveries, the seed).
 */
export const charge = (fields: Omit<Charge, 'kind'>): Charge => ({ kind: 'charge', ...fields });

export function chargeOf(change: Change): Charge | undefined {
  return change.notes?.find((note): note is Charge => (note as { kind?: unknown } | null)?.kind === 'charge');
}

/** Bytes of N-Quads a change inserts: what it costs the store, whatever its kind. */
export function insertedBytes(change: Change): number {
  let bytes = 0;
  for (const op of change.ops) if (op.op === 'insert' || op.op === 'replaceGraph') bytes += Buffer.byteLength(op.nquads);
  return bytes;
}
