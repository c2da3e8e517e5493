import { acceptedIn, type NodeChange } from '../catalog/change-notes.js';
import type { Deliverer } from './deliverer.js';
import type { ReceiverLedger } from './receiver-ledger.js';
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
      for (const { receiver, ...delivery } of queued) ledger.add(receiver, { ...delivery, published: delivery.published.getTime() });
      deliverer.queued(entry);
    }
  };
}
