import type { Change, QuadStore } from '../ports/quad-store.js';

/**
 * Commits and waits until the change survives a crash: for writes whose caller answers only then and
 * holds no lock that the wait would lengthen (the ingest waits for `durable` after its lock instead).
 */
export async function commitDurably(store: Pick<QuadStore, 'commit'>, change: Change): Promise<void> {
  await (
    await store.commit(change)
  ).durable;
}
