import { InsufficientStorage } from '../errors.js';
import type { Change, Committed, QuadStore } from '../ports/quad-store.js';
import { DelegatingStore } from './delegating-store.js';

function insertedQuads(change: Change): number {
  let n = 0;
  for (const op of change.ops) {
    if (op.op !== 'insert' && op.op !== 'replaceGraph') continue;
    for (let i = op.nquads.indexOf('\n'); i >= 0; i = op.nquads.indexOf('\n', i + 1)) n += 1;
  }
  return n;
}

/**
 * The memory an embedded store lives in, as the guard watches it: the bytes in use now (for a store with
 * instances of its own, the larger of them), the end it cannot pass, and the reserve kept below that end.
 * The store's adapter knows these (Oxigraph's WebAssembly memory); a store without such an end has none.
 */
export interface StoreMemory {
  usedBytes(): number;
  readonly endBytes: number;
  readonly reserveBytes: number;
}

const GIB = 1024 ** 3;
const gib = (bytes: number): string => (bytes / GIB).toFixed(2);

/**
 * Refuses a change with 507 when it would take the store past `maxQuads`, or when the WebAssembly
 * memory the store lives in is already within the reserve of its end (`memory`): the quota is derived from a measured cost per quad, and
 * data heavier than measured (long literals) must not take the store past the end of its memory, where
 * it would abort. `heldQuads` counts what the quota is of: the embedded store's quads in its main
 * instance, as the activity log's instance apart has a memory of its own, watched by `memory`.
 * In the node, the commit gate (src/core/quotas/commit-gate.ts) calls `check` for every write an
 * organisation asks for (the inbox, policies, notification endpoints); bookkeeping of work already
 * accepted (deliveries, the seed) and withdrawals still work on a full node, so nothing gets stuck.
 */
export class CapacityGuard extends DelegatingStore {
  constructor(
    inner: QuadStore,
    private readonly maxQuads: number,
    private readonly memory?: StoreMemory,
    private readonly heldQuads: () => Promise<number> | number = () => inner.size(),
  ) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    await this.check(change);
    return this.inner.commit(change);
  }

  /** Throws 507 when `change` would take the store past its quota or its memory. */
  async check(change: Change): Promise<void> {
    const adding = insertedQuads(change);
    if (this.maxQuads > 0 && adding > 0) {
      const held = await this.heldQuads();
      if (held + adding > this.maxQuads) {
        throw new InsufficientStorage(
          `The node's store is full: it holds about ${held} quads and its quota is ${this.maxQuads} (DATASPACE_MAX_QUADS). ` +
            'Nothing was stored. The operator must raise the quota within the memory available or move the node to an external SPARQL store (DATASPACE_STORE=sparql).',
        );
      }
      const used = this.memory?.usedBytes() ?? 0;
      if (this.memory && used > this.memory.endBytes - this.memory.reserveBytes) {
        throw new InsufficientStorage(
          `The node's store is full: its memory has grown to ${gib(used)} GiB of the ${gib(this.memory.endBytes)} GiB it can have, holding about ${held} quads ` +
            `(quota ${this.maxQuads}, DATASPACE_MAX_QUADS). Nothing was stored. The node must move to an external SPARQL store (DATASPACE_STORE=sparql).`,
        );
      }
    }
  }
}
