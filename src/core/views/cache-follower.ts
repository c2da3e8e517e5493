import type { NodeChange } from '../store/change-feed.js';
import type { ChangeClock } from '../policy/change-clock.js';
import type { GraphJson } from './graph-json.js';

/**
 * The read caches' follower of the change feed. It moves the versions the caches check (ChangeClock)
 * and drops the rendered graphs a change rewrote (GraphJson), from the notes of each commit: the
 * inbox's accepted activities, the system events signal delivery writes, policy changes. The clock
 * moves first: it is what keeps a cached answer from passing for a later one.
 */
export function readCacheFollower(clock: ChangeClock, graphJson: Pick<GraphJson, 'invalidate'>): (committed: NodeChange) => void {
  return ({ notes }) => {
    for (const note of notes) {
      if (note.kind === 'policies') clock.policiesChanged();
      else if (note.kind === 'system-event') clock.consignmentChanged(note.consignment);
      else {
        const { accepted, entry } = note;
        const { consignment } = accepted;
        // A Create or Update may make the consignment answer to new ids; every activity to its own urn.
        clock.consignmentChanged(
          consignment.consignment,
          accepted.kind === 'consignment' ? [consignment.globalId, consignment.identifier, entry] : [entry],
        );
        graphJson.invalidate(accepted.graph);
        // A carrier booking may rewrite the consignment's own graph too.
        if (accepted.kind === 'event') graphJson.invalidate(consignment.stateGraph);
      }
    }
  };
}
