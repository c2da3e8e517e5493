import type { Accepted } from '../../src/core/catalog/accepted.js';
import { acceptedIn } from '../../src/core/catalog/change-notes.js';
import { createLogger } from '../../src/core/logger.js';
import { ChangeFeed } from '../../src/core/store/change-feed.js';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import type { QuadStore } from '../../src/core/ports/quad-store.js';

/**
 * A real store (an OxigraphStore unless given) whose commits a change feed publishes, as the node's are. `onAccepted` follows the
 * activities an ingest over `store` accepts, as the node's publication order and signals do.
 */
export function fedStore(base: QuadStore = new OxigraphStore()) {
  const feed = new ChangeFeed(createLogger('silent'));
  const store = feed.store(base);
  const onAccepted = (follow: (accepted: Accepted, entry: string) => void): void =>
    feed.follow('test', (committed) => {
      for (const { accepted, entry } of acceptedIn(committed)) follow(accepted, entry);
    });
  return { feed, store, onAccepted };
}
