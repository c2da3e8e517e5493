import { svc } from '../rdf/namespaces.js';
import { DelegatingStore } from '../store/delegating-store.js';
import type { Change, Committed, QuadStore } from '../store/quad-store.js';

// N-Quads write an IRI as <…> with no spaces inside, whoever built the text.
const SYSTEM_EVENT_OF = new RegExp(`<${svc('systemEventOf').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}> <([^>\\s]*)>`, 'g');

/**
 * A store that tells, once a commit is visible, which consignments it gave a system event. Writers
 * other than the inbox add to a consignment's read view this way (signal delivery records
 * SIGNAL_DELIVERED and SIGNAL_FAILED), so a cached view must hear of them as it hears of activities.
 */
export class SystemEventCommits extends DelegatingStore {
  constructor(inner: QuadStore, private readonly changed: (consignment: string) => void) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    const committed = await this.inner.commit(change);
    for (const op of change.ops) {
      if (op.op !== 'insert') continue;
      for (const match of op.nquads.matchAll(SYSTEM_EVENT_OF)) this.changed(match[1]);
    }
    return committed;
  }
}
