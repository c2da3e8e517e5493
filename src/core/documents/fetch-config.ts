import { integerFrom as integer, lowerCaseListFrom } from '../settings/read.js';
import { FairSlots } from '../util/fair-slots.js';

/** Fetching of document files named by uRIId (DATASPACE_FETCH_*). */
export interface FetchConfig {
  /**
   * DATASPACE_FETCH_ALLOW: comma-separated host names (`files.example.com`, `*.example.org`), IP
   * addresses or CIDR ranges, and `*` for every public host. Unset means `*`. Loopback, link-local,
   * private and other non-public addresses are refused unless listed by name, address or range.
   */
  allow: string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** DATASPACE_DOCUMENT_QUOTA_BYTES: bytes of files kept per organisation (default 1 GiB; 0 = no quota). */
  quotaBytes: number;
  /**
   * DATASPACE_FETCH_CONCURRENCY: files fetched at once (default 8); one organisation's fetches hold at
   * most half of them, and at most DATASPACE_FETCH_QUEUE_PER_ORG (default 32) more wait (then 429).
   */
  concurrency: number;
  queuePerOrg: number;
}

export function readFetchConfig(env: NodeJS.ProcessEnv): FetchConfig {
  return {
    allow: lowerCaseListFrom(env, 'DATASPACE_FETCH_ALLOW'),
    maxBytes: integer(env, 'DATASPACE_FETCH_MAX_BYTES'),
    timeoutMs: integer(env, 'DATASPACE_FETCH_TIMEOUT_MS'),
    maxRedirects: integer(env, 'DATASPACE_FETCH_MAX_REDIRECTS'),
    quotaBytes: integer(env, 'DATASPACE_DOCUMENT_QUOTA_BYTES'),
    concurrency: integer(env, 'DATASPACE_FETCH_CONCURRENCY'),
    queuePerOrg: integer(env, 'DATASPACE_FETCH_QUEUE_PER_ORG'),
  };
}

/** The fetches' slots: DATASPACE_FETCH_CONCURRENCY at once, in turns by organisation, each at most half. */
export function fetchSlots(config: FetchConfig): FairSlots {
  return new FairSlots({
    slots: config.concurrency,
    perOwner: Math.max(1, Math.floor(config.concurrency / 2)),
    waitingPerOwner: config.queuePerOrg,
    what: 'document fetches',
  });
}
