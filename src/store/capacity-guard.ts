import type { Quad } from '@rdfjs/types';
import { InsufficientStorage } from '../http/errors.js';
import type { Bindings, Change, Committed, QueryDataset, QuadStore } from './quad-store.js';

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
export class CapacityGuard implements QuadStore {
  constructor(private readonly inner: QuadStore, private readonly maxQuads: number) {}

  select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    return this.inner.select(query, dataset);
  }

  ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    return this.inner.ask(query, dataset);
  }

  construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    return this.inner.construct(query, dataset);
  }

  queryRaw(query: string, dataset: QueryDataset, format: string): Promise<string> {
    return this.inner.queryRaw(query, dataset, format);
  }

  async commit(change: Change): Promise<Committed> {
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

  size(): Promise<number> {
    return this.inner.size();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
