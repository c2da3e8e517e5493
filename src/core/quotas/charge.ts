import type { Change } from '../ports/quad-store.js';

/**
 * A commit carries a charge (`Change.charge`) when an organisation asked for it (the inbox, policies,
 * the notification endpoint): the gate applies the quotas and the node's capacity to it. A commit with
 * none is the node's own bookkeeping of work already accepted (deliveries, the seed).
 */
export type { Charge } from '../ports/quad-store.js';

/** Bytes of N-Quads a change inserts: what it costs the store, whatever its kind. */
export function insertedBytes(change: Change): number {
  let bytes = 0;
  for (const op of change.ops) if (op.op === 'insert' || op.op === 'replaceGraph') bytes += Buffer.byteLength(op.nquads);
  return bytes;
}
