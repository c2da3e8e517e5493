import { LRUCache } from 'lru-cache';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, str } from '../queries/query-bank.js';
import { isSafeIri } from '../rdf/terms.js';
import type { QuadStore } from '../store/quad-store.js';
import type { ChangeClock } from './change-clock.js';

/** A consignment record an id names, and whether through an activity about it (which never changes). */
export interface IdMatch {
  consignment: string;
  byActivity: boolean;
}

// Binds to nothing: keeps the activity branch inert when the id is not an IRI.
export const NO_ACTIVITY = 'urn:dataspace:none';

// Ids longer than this are answered but not kept: a path segment can be long, a globalId is not.
const MAX_CACHED_ID = 256;

/**
 * Which consignment records an id (globalId, identifier or activity urn) names, remembered until a
 * write may have made another consignment answer to it (ChangeClock.id). Visibility.find asks it only
 * for the activity urns, which memory does not hold (an activity names its consignment for good);
 * globalIds and identifiers are looked up in the read index. Ids that name nothing are not kept, so
 * probing random ids cannot crowd out the ones in use.
 */
export class IdResolution {
  private readonly cache: LRUCache<string, { matches: IdMatch[]; generation: number }>;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly clock: ChangeClock,
    capacity = 200_000,
  ) {
    this.cache = new LRUCache({ max: capacity });
  }

  async resolve(id: string): Promise<IdMatch[]> {
    const generation = this.clock.id(id);
    const hit = this.cache.get(id);
    if (hit && hit.generation === generation) return hit.matches;
    const rows = await this.store.select(this.queries.bind('policy/resolve-id', {
      id: str(id),
      activity: iri(isSafeIri(id) ? id : NO_ACTIVITY),
    }));
    const matches = rows.map((row): IdMatch => {
      const via = row.get('viaActivity');
      return via ? { consignment: via.value, byActivity: true } : { consignment: row.get('consignment')!.value, byActivity: false };
    });
    if (hit) this.cache.delete(id);
    if (matches.length > 0 && id.length <= MAX_CACHED_ID) {
      this.cache.set(id, { matches, generation });
    }
    return matches;
  }
}
