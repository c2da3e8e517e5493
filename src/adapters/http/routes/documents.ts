import { Router } from 'express';
import type { QuadStore } from '../../../core/ports/quad-store.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import type { Visibility } from '../../../core/policy/visibility.js';
import type { DocumentsView } from '../../../core/views/documents-view.js';
import { principalOf } from '../authenticate.js';
import { linkNext, linkNextCursor, queryString, readLimit, readPage } from '../paging.js';
import { decodeListCursor, encodeListCursor, readFilter, refuseUnknown } from '../list-filters.js';
import { isFiltered } from '../../../core/policy/list-filter.js';
import { DOCUMENT_FILTER_PARAMETERS } from '../list-filter-parameters.js';
import { BadRequest } from '../../../core/errors.js';
import type { VisibleDocumentRow } from '../../../core/policy/visible-records.js';
import { notVisible } from '../visible-consignment.js';
import { error, json, LINK_NEXT, pagingParameters, ref, type ApiOperation } from '../api-operation.js';

export interface DocumentRouteDeps {
  store: QuadStore;
  queries: QueryBank;
  visibility: Visibility;
  documents: DocumentsView;
  baseUrl: string;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** Documents a filtered page looks at, shown or not, before it answers a partial page (default 20,000). */
  examineLimit?: number;
}

// Looked at between two turns of the event loop: a short piece of work (figures:
// bench/results/2026-12-08-comment-figures.md).
const SLICE = 1000;

/** GET /supply-chain/data-space/documents (spec 4.7): documents across every consignment the caller may read. */
export function documentRoutes(deps: DocumentRouteDeps): Router {
  const router = Router();
  router.get('/supply-chain/data-space/documents', async (req, res) => {
    const principal = principalOf(req);
    if (queryString(req, 'updatedSince') !== undefined)
      throw new BadRequest(
        'updatedSince does not apply to documents: the change feed (GET /supply-chain/data-space/changes) lists documents added and revised',
      );
    refuseUnknown(req, ['cursor', 'limit', 'consignmentId', 'status', 'location', 'scope']);
    const filter = readFilter(req, ['status', 'location', 'scope']);
    const consignmentId = queryString(req, 'consignmentId');
    if (consignmentId !== undefined && isFiltered(filter))
      throw new BadRequest("consignmentId does not combine with status, location or scope: read that consignment's documents alone");
    const page = isFiltered(filter) ? undefined : readPage(req, deps.pageLimitDefault, deps.pageLimitMax);
    if (consignmentId !== undefined && page) {
      const visible = await deps.visibility.find(principal, consignmentId);
      if (!visible) throw notVisible(consignmentId);
      const all = await deps.documents.ofConsignment(principal, visible);
      // Documents of one consignment are few; page them by position after the cursor.
      const items = all.slice(page.afterSeq, page.afterSeq + page.limit);
      linkNext(req, res, deps.baseUrl, page.afterSeq + items.length, all.length > page.afterSeq + page.limit);
      res.json(items);
      return;
    }
    let pageRows: VisibleDocumentRow[];
    if (page) {
      // A bounded walk, as for a filtered list: a page never scans every document of a busy owner at once.
      const walked = await deps.visibility.filteredDocuments(principal, filter, page.afterSeq, {
        items: page.limit,
        examine: deps.examineLimit ?? 20_000,
        slice: SLICE,
      });
      pageRows = walked.items;
      linkNext(req, res, deps.baseUrl, walked.next, walked.next !== undefined);
    } else {
      const limit = readLimit(req, deps.pageLimitDefault, deps.pageLimitMax);
      const afterSeq = decodeListCursor(filter, queryString(req, 'cursor'), 'documents')?.seq ?? 0;
      const filtered = await deps.visibility.filteredDocuments(principal, filter, afterSeq, {
        items: limit,
        examine: deps.examineLimit ?? 20_000,
        slice: SLICE,
      });
      pageRows = filtered.items;
      if (filtered.next !== undefined)
        linkNextCursor(req, res, deps.baseUrl, encodeListCursor(filter, { seq: filtered.next }, 'documents'));
    }
    const attachments = [];
    const byConsignment = new Map<string, Awaited<ReturnType<DocumentsView['ofConsignment']>>>();
    for (const row of pageRows) {
      const { globalId } = row;
      let docs = byConsignment.get(globalId);
      if (!docs) {
        const visible = await deps.visibility.find(principal, globalId);
        docs = visible ? await deps.documents.ofConsignment(principal, visible) : [];
        byConsignment.set(globalId, docs);
      }
      const doc = docs.find((d) => d.id === row.document);
      if (doc) attachments.push(doc);
    }
    res.json(attachments);
  });
  return router;
}

export const documentOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/supply-chain/data-space/documents',
    operationId: 'listDocuments',
    tag: 'Documents',
    authenticated: true,
    summary: 'Documents across every consignment the caller may read',
    parameters: [
      ...pagingParameters(),
      { name: 'consignmentId', in: 'query', description: "Only this consignment's documents", schema: { type: 'string' } },
      ...DOCUMENT_FILTER_PARAMETERS,
    ],
    responses: {
      200: json('One page of attachments', { type: 'array', items: ref('DocumentAttachment') }, LINK_NEXT),
      400: error('A malformed cursor, limit or filter, a cursor issued under other filters, updatedSince, or consignmentId with a filter'),
      404: error('consignmentId names no consignment the caller may read'),
    },
  },
];
