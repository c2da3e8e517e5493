import { acceptedIn } from '../catalog/change-notes.js';
import type { NodeChange } from '../store/change-feed.js';
import type { Deliverer } from './deliverer.js';
import type { ReceiverLedger } from '../ports/receiver-ledger.js';
import type { SignalContributor } from './signal-contributor.js';

/**
 * The change-feed follower for signals: the deliveries a published commit queued go into the
 * receivers' ledger (what GET /signals lists) and to the deliverer (which sends them). Told only once
 * the commit is published, so a failed commit lists and sends nothing.
 */
export function signalsFollower(
  signals: Pick<SignalContributor, 'takeQueued'>,
  ledger: Pick<ReceiverLedger, 'add'>,
  deliverer: Pick<Deliverer, 'queued'>,
): (committed: NodeChange) => void {
  return (committed) => {
    for (const { entry } of acceptedIn(committed)) {
      const queued = signals.takeQueued(entry);
      if (!queued) continue;
      for (const d of queued) ledger.add(d.receiver, { seq: d.seq, delivery: d.delivery, type: d.type, published: d.published.getTime() });
      // Handed over as they are: a read of the outbox here could fail, and what it missed would wait for a restart.
      deliverer.queued(
        queued.map((d) => {
          const at = d.published.getTime();
          return {
            delivery: d.delivery,
            receiver: d.receiver,
            consignment: d.consignment,
            seq: d.seq,
            attempts: 0,
            queuedAt: at,
            nextAttempt: at,
          };
        }),
      );
    }
  };
}
