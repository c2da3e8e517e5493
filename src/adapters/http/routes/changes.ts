import { Router, type Request } from 'express';
import type { ChangeLog } from '../../../core/changes/change-log.js';
import { decodeFeedCursor, encodeFeedCursor, START, type Cursor } from '../../../core/changes/change-cursor.js';
import type { FeedItem } from '../../../core/changes/change-walk.js';
import { BadRequest } from '../../../core/errors.js';
import { principalOf } from '../authenticate.js';
import { queryString } from '../paging.js';
import { error, type ApiOperation } from '../api-operation.js';
import { FEED_MEDIA_TYPES, feedContext, sendActivityStreams } from '../feed-media.js';
import { refuseUnknown } from '../list-filters.js';

export interface ChangeRouteDeps {
  changes: ChangeLog;
  baseUrl: string;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** Changes one request looks at, seen or not, before it answers a partial page (default 20,000). */
  examineLimit?: number;
}

const PATH = '/supply-chain/data-space/changes';
// Looked at between two turns of the event loop: a short piece of work (figures:
// bench/results/2026-12-08-comment-figures.md).
const SLICE = 1000;

/** The ActivityStreams type of each change, beside the feed's own name for it (`change`). */
const AS_TYPE: Record<FeedItem['change'], string> = {
  'consignment-created': 'Create',
  'consignment-updated': 'Update',
  'event-added': 'Add',
  'document-added': 'Add',
  'document-revised': 'Update',
  'became-visible': 'Add',
  'became-invisible': 'Remove',
};

function readLimit(req: Request, deps: ChangeRouteDeps): number {
  const raw = queryString(req, 'limit');
  if (raw === undefined) return deps.pageLimitDefault;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > deps.pageLimitMax)
    throw new BadRequest(`limit must be an integer from 1 to ${deps.pageLimitMax}`);
  return Number(raw);
}

/**
 * GET …/changes: what changed in what the caller may read, in commit order, as an ActivityStreams
 * OrderedCollection. Without `after` the collection itself (its first page and the page at its
 * present end); with `after` one page from that cursor, whose `next` is where to go on.
 */
export function changeRoutes(deps: ChangeRouteDeps): Router {
  const router = Router();
  const collection = new URL(PATH, deps.baseUrl).href;
  const pageUrl = (cursor: Cursor, limit?: number) =>
    `${collection}?after=${encodeFeedCursor(cursor)}${limit === undefined ? '' : `&limit=${limit}`}`;
  const context = feedContext(deps.baseUrl);
  const href = (globalId: string) => new URL(`/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`, deps.baseUrl).href;

  router.get(PATH, async (req, res) => {
    const principal = principalOf(req);
    refuseUnknown(req, ['after', 'limit']);
    const after = queryString(req, 'after');
    const limit = readLimit(req, deps);
    if (after === undefined) {
      // The end as it stands: a reader that wants only what comes from now on starts there.
      const end = await deps.changes.end();
      // A limit asked for on the collection holds for the pages it links to.
      const given = queryString(req, 'limit') === undefined ? undefined : limit;
      sendActivityStreams(req, res, {
        '@context': context,
        id: collection,
        type: 'OrderedCollection',
        first: pageUrl(START, given),
        last: pageUrl(end, given),
      });
      return;
    }
    const from = after === '' ? START : decodeFeedCursor(after);
    if (!from) throw new BadRequest('after is not a cursor this node issued');
    const result = await deps.changes.page(principal, from, { items: limit, examine: deps.examineLimit ?? 20_000, slice: SLICE });
    sendActivityStreams(req, res, {
      '@context': context,
      id: pageUrl(from, limit),
      type: 'OrderedCollectionPage',
      partOf: collection,
      next: pageUrl(result.next, limit),
      orderedItems: result.items.map((item) => ({
        id: `urn:dataspace:change:${item.after.seq}-${item.after.sub}-${item.after.idx}`,
        type: AS_TYPE[item.change],
        change: item.change,
        published: item.published,
        object: { type: 'Consignment', id: item.globalId, url: href(item.globalId) },
        ...(item.typeCode === undefined ? {} : { typeCode: item.typeCode }),
        ...(item.revision === undefined ? {} : { documentRevision: item.revision }),
        // Where to resume to read on from just after this item.
        cursor: encodeFeedCursor(item.after),
      })),
      ...(result.atEnd ? {} : { partial: true }),
    });
  });
  return router;
}

const CHANGE = {
  type: 'object',
  required: ['id', 'type', 'change', 'published', 'object', 'cursor'],
  properties: {
    id: { type: 'string' },
    type: { enum: ['Create', 'Update', 'Add', 'Remove'] },
    change: { enum: Object.keys(AS_TYPE) },
    published: { type: 'string', format: 'date-time' },
    object: {
      type: 'object',
      properties: {
        type: { const: 'Consignment' },
        id: { type: 'string', description: 'globalId' },
        url: { type: 'string', format: 'uri' },
      },
    },
    typeCode: { type: 'string' },
    documentRevision: { type: 'integer' },
    cursor: { type: 'string' },
  },
};

const FEED_BODY = {
  type: 'object',
  properties: {
    '@context': { type: 'array', items: { type: 'string' } },
    type: { enum: ['OrderedCollection', 'OrderedCollectionPage'] },
    first: { type: 'string' },
    last: { type: 'string' },
    next: { type: 'string' },
    orderedItems: { type: 'array', items: CHANGE },
  },
};

export const changeOperations: ApiOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'readChanges',
    tag: 'Consignments',
    authenticated: true,
    summary: 'What changed in what the caller may read, in commit order (an ActivityStreams OrderedCollection, paged)',
    parameters: [
      {
        name: 'after',
        in: 'query',
        description: "A cursor from `first`, `last`, `next` or an item's `cursor`; omit for the collection",
        schema: { type: 'string' },
      },
      {
        name: 'limit',
        in: 'query',
        description: 'Items in the page; on the collection, carried into `first` and `last`',
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    responses: {
      200: {
        description:
          'The collection (without `after`) or one OrderedCollectionPage; `partial: true` when the page ended early on its work bound. ' +
          "By Accept: application/activity+json (the default), application/ld+json (ActivityStreams profile) or application/json, the same body; `@context` names ActivityStreams and the node's own terms (/contexts/dataspace-changes.jsonld)",
        content: Object.fromEntries(FEED_MEDIA_TYPES.map((type) => [type, FEED_BODY])),
      },
      400: error('A cursor the node did not issue, or a limit out of range'),
      406: error('An Accept header that names none of the three media types'),
    },
  },
];
