import { InsufficientStorage } from '../errors.js';
import type { Change, Committed, QuadStore } from './quad-store.js';
import { DelegatingStore } from './delegating-store.js';

function insertedQuads(change: Change): number {
  let n = 0;
  for (const op of change.ops) {
    if (op.op !== 'insert') continue;
    for (let i = op.nquads.indexOf('\n'); i >= 0; i = op.nquads.indexOf('\n', i + 1)) n += 1;
  }
  return n;
}

/**
 * Refuses a change with 507 when it would take the store past `maxQuads`. Put in front of the inbox
 * only: bookkeeping (deliveries, policies, the seed) still works on a full node, so nothing already
 * accepted gets stuck.
 */
export class CapacityGuard extends DelegatingStore {
  constructor(inner: QuadStore, private readonly maxQuads: number) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    const adding = insertedQuads(change);
    if (this.maxQuads > 0 && adding > 0) {
      const held = await this.inner.size();
      if (held + adding > this.maxQuads) {
        throw new InsufficientStorage(
          `The node's store is full: it holds about ${held} quads and its quota is ${this.maxQuads} (DATASPACE_MAX_QUADS). `
          + 'Nothing was stored. The operator must raise the quota within the memory available or move the node to an external SPARQL store (DATASPACE_STORE=sparql).',
        );
      }
    }
    return this.inner.commit(change);
  }
}
