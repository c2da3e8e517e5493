import { Router } from 'express';
import type { QuadStore } from '../../store/quad-store.js';
import type { QueryBank } from '../../queries/query-bank.js';
import type { Visibility } from '../../policy/visibility.js';
import type { DocumentsView } from '../../views/documents-view.js';
import { principalOf } from '../authenticate.js';
import { linkNext, queryString, readPage } from '../paging.js';
import { notVisible } from './consignments.js';
import { error, json, LINK_NEXT, pagingParameters, ref, type ApiOperation } from '../api-operation.js';

export interface DocumentRouteDeps {
  store: QuadStore;
  queries: QueryBank;
  visibility: Visibility;
  documents: DocumentsView;
  baseUrl: string;
  pageLimitDefault: number;
  pageLimitMax: number;
}

/** GET /supply-chain/data-space/documents (spec 4.7): documents across every consignment the caller may read. */
export function documentRoutes(deps: DocumentRouteDeps): Router {
  const router = Router();
  router.get('/supply-chain/data-space/documents', async (req, res) => {
    const principal = principalOf(req);
    const page = readPage(req, deps.pageLimitDefault, deps.pageLimitMax);
    const consignmentId = queryString(req, 'consignmentId');
    if (consignmentId !== undefined) {
      const visible = await deps.visibility.find(principal, consignmentId);
      if (!visible) throw notVisible(consignmentId);
      const all = await deps.documents.ofConsignment(principal, visible);
      // Documents of one consignment are few; page them by position after the cursor.
      const items = all.slice(page.afterSeq, page.afterSeq + page.limit);
      linkNext(req, res, deps.baseUrl, page.afterSeq + items.length, all.length > page.afterSeq + page.limit);
      res.json(items);
      return;
    }
    const rows = await deps.visibility.documentPage(principal, page.afterSeq, page.limit + 1);
    const pageRows = rows.slice(0, page.limit);
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
    const last = pageRows.at(-1);
    linkNext(req, res, deps.baseUrl, last?.docSeq, rows.length > page.limit);
    res.json(attachments);
  });
  return router;
}

export const documentOperations: ApiOperation[] = [{
  method: 'get', path: '/supply-chain/data-space/documents', operationId: 'listDocuments', tag: 'Documents', authenticated: true,
  summary: 'Documents across every consignment the caller may read',
  parameters: [
    ...pagingParameters(),
    { name: 'consignmentId', in: 'query', description: 'Only this consignment\'s documents', schema: { type: 'string' } },
  ],
  responses: {
    200: json('One page of attachments', { type: 'array', items: ref('DocumentAttachment') }, LINK_NEXT),
    400: error('A malformed cursor or limit'),
    404: error('consignmentId names no consignment the caller may read'),
  },
}];
