import type { ProcessedActivityIds } from '../../core/activities/idempotency.js';
import { ServiceUnavailable } from '../../core/errors.js';

/**
 * A writer answers a write only while it trusts its lease (writer-lease.ts `held`): the store's
 * updates check it before and after each request; these check it once more when the answer is
 * ready, after the catalog row (which PostgreSQL may answer late, the route to it cut) and before a
 * retry is answered with its first entry. Refused, the client sends the write again with its id and
 * the replica holding the lease answers it, with the original entry when it was applied.
 */
export function confirmLease(held: () => boolean): void {
  if (!held())
    throw new ServiceUnavailable('This replica cannot confirm it still holds the writer lease: the write is not acknowledged; retry', 1);
}

/** `inner`, whose answers to retries (replays of an applied activity) wait for the lease to be confirmed. */
export function leaseConfirmedReplays(inner: ProcessedActivityIds, held: () => boolean): ProcessedActivityIds {
  return {
    start: (now) => inner.start(now),
    remember: (actor, activityId, digest, entry, at) => inner.remember(actor, activityId, digest, entry, at),
    ...(inner.claim && { claim: inner.claim.bind(inner) }),
    lookup: async (actor, activityId, digest, now) => {
      // A new write on a writer that cannot confirm its lease is refused before PostgreSQL is asked:
      // on a route cut off from it, the question would wait for its statement bound.
      confirmLease(held);
      const found = await inner.lookup(actor, activityId, digest, now);
      if (found.replay) confirmLease(held);
      return {
        replay: found.replay,
        again: async (at) => {
          const replay = await found.again(at);
          if (replay) confirmLease(held);
          return replay;
        },
      };
    },
  };
}
