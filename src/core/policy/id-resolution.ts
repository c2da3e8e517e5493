import { LRUCache } from 'lru-cache';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import type { QueryStore } from '../ports/quad-store.js';
import type { ChangeClock } from './change-clock.js';

// Ids longer than this are answered but not kept: a path segment can be long, an activity urn is not.
const MAX_CACHED_ID = 256;

/**
 * The consignment records an activity-log urn names (an activity names its consignment for good), read
 * from the activity log alone (policy/activity-consignments.rq): whether the caller may read them, and
 * whether they are records at all, is decided afterwards from the records. With a clock, answers are
 * remembered until a write may have made the id answer otherwise (ChangeClock.id); ids that name
 * nothing are not kept, so probing random ids cannot crowd out the ones in use.
 */
export class IdResolution {
  private readonly cache: LRUCache<string, { consignments: string[]; generation: number }>;

  constructor(
    private readonly activityLog: QueryStore,
    private readonly queries: QueryBank,
    private readonly clock?: ChangeClock,
    capacity = 200_000,
  ) {
    this.cache = new LRUCache({ max: capacity });
  }

  /** `activity` must be a safe IRI (isSafeIri). */
  async consignmentsOf(activity: string): Promise<string[]> {
    const generation = this.clock?.id(activity);
    const hit = this.clock && this.cache.get(activity);
    if (hit && hit.generation === generation) return hit.consignments;
    const rows = await this.activityLog.select(this.queries.bind('policy/activity-consignments', { activity: iri(activity) }));
    const consignments = rows.map((row) => row.get('consignment')!.value);
    if (hit) this.cache.delete(activity);
    if (generation !== undefined && consignments.length > 0 && activity.length <= MAX_CACHED_ID) {
      this.cache.set(activity, { consignments, generation });
    }
    return consignments;
  }
}
