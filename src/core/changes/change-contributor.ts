import type { Accepted, WriteContext, WriteContributor } from '../activities/accepted.js';
import type { DataChange, DataEntry } from './change-entry.js';
import type { ChangeJournal } from './change-journal.js';
import { stamp } from '../rdf/date-times.js';

/** What an accepted write changed, as the feed names it. */
export function dataChangeOf(accepted: Accepted): DataChange {
  switch (accepted.kind) {
    case 'consignment':
      return accepted.activityType === 'Create' ? 'consignment-created' : 'consignment-updated';
    case 'event':
      return 'event-added';
    case 'document':
      return (accepted.revision ?? 1) > 1 ? 'document-revised' : 'document-added';
  }
}

/**
 * Writes the journal entry of an accepted activity inside the activity's own commit (so an entry
 * exists exactly when its change does), at the next number of the node's sequence, which the ingest
 * hands out under its lock in commit order. The entry waits here until the change feed publishes
 * the commit.
 */
export class ChangeContributor implements WriteContributor {
  private readonly waiting = new Map<string, DataEntry>();

  constructor(
    private readonly journal: ChangeJournal,
    private readonly allocateSeq: () => number,
  ) {}

  contribute(accepted: Accepted, context: WriteContext) {
    const { consignment } = accepted;
    const entry: DataEntry = {
      kind: 'data',
      at: { seq: this.allocateSeq(), sub: 0 },
      change: dataChangeOf(accepted),
      consignment: consignment.consignment,
      globalId: consignment.globalId,
      owner: consignment.owner,
      published: stamp(context.now),
    };
    if (consignment.routes !== undefined) entry.routes = consignment.routes;
    if (accepted.typeCode !== undefined) entry.typeCode = accepted.typeCode;
    if (accepted.kind === 'document' && accepted.revision !== undefined) entry.revision = accepted.revision;
    // Until the commit is published, or dropped by abandon() when it fails.
    this.waiting.set(context.activity, entry);
    return this.journal.appendOps(entry);
  }

  abandon(activity: string): void {
    this.waiting.delete(activity);
  }

  /** The entry `activity`'s commit wrote, once (asked when the commit is published). */
  take(activity: string): DataEntry | undefined {
    const entry = this.waiting.get(activity);
    this.waiting.delete(activity);
    return entry;
  }
}
