import type { ChangeClock } from '../policy/change-clock.js';
import { ConsignmentCache } from './consignment-cache.js';
import type { DocumentAttachment } from './documents-view.js';
import type { JsonBody } from './json-body.js';

export interface ReadCaches {
  views: ConsignmentCache<JsonBody>;
  attachments: ConsignmentCache<DocumentAttachment[]>;
}

// Sized to keep the views a busy node's readers come back to, and small beside what the store itself
// takes per consignment (the sizes it was set from: bench/results/2026-12-07-comment-figures.md).
const VIEW_BYTES = 128 * 1024 * 1024;
// Attachment lists are weighed, not serialised: by what an attachment takes as JSON.
const ATTACHMENT_BYTES = 32 * 1024 * 1024;

/** The caches of read answers, all following one ChangeClock. */
export function readCaches(clock: ChangeClock): ReadCaches {
  return {
    views: new ConsignmentCache<JsonBody>(clock, (body) => body.bytes.length + 200, VIEW_BYTES),
    attachments: new ConsignmentCache<DocumentAttachment[]>(clock, (list) => 200 + 2048 * list.length, ATTACHMENT_BYTES),
  };
}
