import type { Logger } from '../../../core/logger.js';
import { POLICIES_CHANGED } from '../../../core/catalog/change-notes.js';
import { readCacheFollower } from '../../../core/views/cache-follower.js';
import type { ApplyCommits } from './commit-follower.js';
import type { Reload } from './commit-rows.js';
import type { ServedParts } from './serving-role.js';

/**
 * What a follower does with the writer's commits, so that its memory answers as the writer's would:
 * the read caches and the policies in force follow the notes as on the writer (the same followers);
 * organisations, users, clients and revoked tokens, and notification endpoints are read again from
 * the store when a commit touched them; on `all` (a new writer, or commits this replica missed) every
 * cached answer is dropped and all of these are read again.
 */
export function followMemory(parts: ServedParts, logger: Logger): ApplyCommits {
  const caches = readCacheFollower(parts.clock, parts.graphJson);
  return async (rows) => {
    const reload = new Set<Reload>();
    for (const row of rows) {
      for (const kind of row.reload) reload.add(kind);
      if (row.reload.includes('all')) {
        parts.clock.everythingChanged();
        parts.graphJson.clear();
        parts.coverage.follow([POLICIES_CHANGED]);
      }
      // Synchronous, as on the writer's change feed: no read comes between a commit's notes.
      caches({ seq: row.position, change: { ops: [] }, notes: row.notes });
      parts.coverage.follow(row.notes);
    }
    const all = reload.has('all');
    const loads: Promise<unknown>[] = [];
    if (all || reload.has('registry'))
      loads.push(parts.registry.load(), parts.users.load(), parts.clients.load(), parts.revoked.load(Date.now(), false));
    if (all || reload.has('endpoints')) loads.push(parts.endpoints.load());
    if (loads.length > 0) {
      await Promise.all(loads);
      logger.debug?.('read again what the writer changed', { reload: [...reload] });
    }
  };
}
