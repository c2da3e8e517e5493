import type { ChangeClock } from '../policy/change-clock.js';
import { ConsignmentCache } from './consignment-cache.js';
import type { DocumentAttachment } from './documents-view.js';
import type { JsonBody } from './json-body.js';

export interface ReadCaches {
  views: ConsignmentCache<JsonBody>;
  attachments: ConsignmentCache<DocumentAttachment[]>;
}

// A read view with one event and one document is ~5 kB: 128 MiB keeps ~25k of them, what a busy
// node's readers come back to; the store itself takes ~26 kB per consignment, so this stays small beside it.
const VIEW_BYTES = 128 * 1024 * 1024;
// Attachment lists are weighed, not serialised: ~2 kB an attachment is what they take as JSON.
const ATTACHMENT_BYTES = 32 * 1024 * 1024;

/** The caches of read answers, all following one ChangeClock. */
export function readCaches(clock: ChangeClock): ReadCaches {
  return {
    views: new ConsignmentCache<JsonBody>(clock, (body) => body.bytes.length + 200, VIEW_BYTES),
    attachments: new ConsignmentCache<DocumentAttachment[]>(clock, (list) => 200 + 2048 * list.length, ATTACHMENT_BYTES),
  };
}
