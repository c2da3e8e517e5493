import { Router, type Request } from 'express';
import type { Visibility } from '../../../core/policy/visibility.js';
import { isScope, SCOPES } from '../../../core/policy/list-filter.js';
import type { ConsignmentView } from '../../../core/views/consignment-view.js';
import type { DocumentsView } from '../../../core/views/documents-view.js';
import type { RdfExport } from '../../../core/views/rdf-export.js';
import { RDF_FORMATS, type RdfFormat } from '../../../core/views/rdf-formats.js';
import type { Offer } from '../negotiate.js';
import { chooseOffer, sendRepresentation } from '../rdf-response.js';
import { servedD23bContext } from '../../../core/rdf/document-loader.js';
import { principalOf } from '../authenticate.js';
import { BadRequest, NotFound } from '../../../core/errors.js';
import { linkNextCursor, queryString, readLimit } from '../paging.js';
import { guardConsignmentIds, visibleOf } from '../visible-consignment.js';
import { decodeListCursor, encodeListCursor, readFilter, refuseUnknown } from '../list-filters.js';
import type { VisibleConsignment } from '../../../core/policy/visible-records.js';
import { error, json, LINK_NEXT, pagingParameters, pathId, rdfContent, ref, type ApiOperation } from '../api-operation.js';
import { LIST_FILTER_PARAMETERS } from '../list-filter-parameters.js';

export interface ConsignmentRouteDeps {
  visibility: Visibility;
  view: ConsignmentView;
  documents: DocumentsView;
  rdfExport: RdfExport;
  baseUrl: string;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** Consignments a filtered list page looks at, shown or not, before it answers a partial page (default 20,000). */
  examineLimit?: number;
}

/** The parameters of the list; any other is refused, so a misspelt filter is not read as no filter. */
const LIST_PARAMETERS = ['cursor', 'limit', 'updatedSince', 'status', 'location', 'scope'] as const;
// Looked at between two turns of the event loop: a short piece of work (figures:
// bench/results/2026-12-08-comment-figures.md).
const SLICE = 1000;

/** JSON unless the Accept header names only non-JSON types (a browser following href, or curl -H 'Accept: application/pdf'). */
/**
 * A document's href answers with the file to any client that does not ask for JSON: a plain download
 * (`curl -O`, a browser, `Accept: *\/*`, no Accept at all) gets the bytes with their media type. The
 * DocumentAttachment metadata is the answer to `Accept: application/json` (or any +json type) or to
 * `?meta`. See docs/fidelity.md.
 */
function wantsFile(req: Request): boolean {
  if (req.query.meta !== undefined) return false;
  const accept = req.headers.accept;
  if (!accept) return true;
  const types = accept
    .split(',')
    .map((t) => t.split(';')[0]!.trim().toLowerCase())
    .filter((t) => t.length > 0);
  return !types.some((t) => t === 'application/json' || t.endsWith('+json'));
}

/** The JSON read view first (the default for `*\/*` and no Accept), then every RDF syntax. */
const VIEW_OFFERS: readonly (Offer | RdfFormat)[] = [{ mediaType: 'application/json' }, ...RDF_FORMATS];

/** Consignment reads (spec 4.3–4.6). A consignment the caller may not read is answered exactly like one that does not exist. */
export function consignmentRoutes(deps: ConsignmentRouteDeps): Router {
  const router = Router();
  const { visibility, view, documents, baseUrl } = deps;
  // Every route below with an :id reads only a consignment the caller may read (visible-consignment.ts).
  guardConsignmentIds(router, visibility);

  router.get('/supply-chain/data-space/consignments', async (req, res) => {
    const principal = principalOf(req);
    refuseUnknown(req, LIST_PARAMETERS);
    const filter = readFilter(req, ['updatedSince', 'status', 'location', 'scope']);
    const limit = readLimit(req, deps.pageLimitDefault, deps.pageLimitMax);
    const after = decodeListCursor(filter, queryString(req, 'cursor'));
    // From the index's lists, a bounded walk a page (core/util/filtered-walk.ts), filtered or not: a reader
    // whose grants name a busy location never has a page scan every consignment routed through it at once.
    const page = await visibility.filteredList(principal, filter, after, {
      items: limit,
      examine: deps.examineLimit ?? 20_000,
      slice: SLICE,
    });
    const items: VisibleConsignment[] = page.items;
    if (page.next) linkNextCursor(req, res, baseUrl, encodeListCursor(filter, page.next));
    res.json(
      items.map((c) => ({
        // As the read view gives it: the root id sent beside the globalId (pilot E's urn:ucr:…), else the globalId.
        id: c.sentId ?? c.globalId,
        globalId: c.globalId,
        identifier: c.identifier,
        owner: c.owner,
        status: c.status,
        created: c.created,
        updated: c.updated,
        href: `${baseUrl}/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`,
      })),
    );
  });

  router.get('/supply-chain/data-space/consignments/:id', async (req, res) => {
    const principal = principalOf(req);
    const scope = queryString(req, 'scope') ?? 'all';
    if (!isScope(scope)) throw new BadRequest('scope must be own, shared or all');
    const visible = visibleOf(req);
    // The JSON read view stays the default; RDF clients ask for the visible graphs themselves.
    const offer = chooseOffer(req, res, VIEW_OFFERS);
    if ('syntax' in offer) {
      sendRepresentation(req, res, await deps.rdfExport.write(principal, visible, scope, offer, servedD23bContext(baseUrl)));
      return;
    }
    const body = await view.body(principal, visible, scope);
    // The entity tag lets a client that already holds this view get 304 instead of it again.
    res.set({ 'content-type': 'application/json; charset=utf-8', etag: body.etag }).send(body.bytes);
  });

  router.get('/supply-chain/data-space/consignments/:id/documents', async (req, res) => {
    refuseUnknown(req, []);
    res.json(await documents.ofConsignment(principalOf(req), visibleOf(req)));
  });

  router.get('/supply-chain/data-space/consignments/:id/documents/:documentId', async (req, res) => {
    const principal = principalOf(req);
    const visible = visibleOf(req);
    const { documentId } = req.params;
    const revisionText = queryString(req, 'revision');
    const revision = revisionText === undefined ? undefined : Number(revisionText);
    if (revision !== undefined && (!Number.isSafeInteger(revision) || revision < 1))
      throw new BadRequest('revision must be a positive integer');
    if (wantsFile(req)) {
      // The file itself (issue 6): the current revision's bytes, or revision n's for history[].href.
      const file = await documents.file(principal, visible, documentId, revision);
      if (!file)
        throw new NotFound(
          `No document ${documentId}${revision === undefined ? '' : ` revision ${revision}`} on consignment ${req.params.id}`,
        );
      if (!file.ok) throw new NotFound(file.reason);
      res.set({
        'content-type': file.encodingFormat,
        'content-disposition': `attachment; filename="${encodeURIComponent(documentId)}-${file.revision}${file.fileExtension ? `.${file.fileExtension}` : ''}"`,
        etag: `"${file.sha256}"`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': 'sandbox',
        vary: 'Accept',
      });
      res.send(file.bytes);
      return;
    }
    const attachment = (await documents.ofConsignment(principal, visible)).find((d) => d.id === documentId || d.documentId === documentId);
    if (!attachment) throw new NotFound(`No document ${documentId} on consignment ${req.params.id}`);
    res.vary('Accept').json(attachment);
  });

  return router;
}

const consignmentId = pathId(
  'id',
  "The consignment's globalId, identifier, the root id it was sent with, or the urn of one of its activities",
);
const RDF_CONTENT = rdfContent(RDF_FORMATS.map((format) => format.mediaType));

export const consignmentOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/supply-chain/data-space/consignments',
    operationId: 'listConsignments',
    tag: 'Consignments',
    authenticated: true,
    summary: 'The consignments the caller may read, in publication order; with updatedSince, in order of their last change',
    description:
      "Filters combine (all must hold) and are answered from the node's consignment index. A cursor is bound to the filters it was issued under. " +
      'A filtered page may hold fewer items than `limit` when few consignments meet the filters; follow the `next` link until there is none.',
    parameters: [...pagingParameters(), ...LIST_FILTER_PARAMETERS],
    responses: {
      200: json('One page', { type: 'array', items: ref('ConsignmentListItem') }, LINK_NEXT),
      400: error('A malformed cursor, limit or filter, a cursor issued under other filters, or a parameter the list does not take'),
    },
  },
  {
    method: 'get',
    path: '/supply-chain/data-space/consignments/{id}',
    operationId: 'getConsignment',
    tag: 'Consignments',
    authenticated: true,
    summary: "One consignment's read view, or its visible graphs as RDF by Accept",
    parameters: [
      consignmentId,
      {
        name: 'scope',
        in: 'query',
        description: "`own` (the caller's contributions), `shared` (others'), `all` (both, merged)",
        schema: { enum: [...SCOPES], default: 'all' },
      },
    ],
    responses: {
      200: {
        description: 'The read view (JSON, with an ETag) or the visible graphs',
        content: { 'application/json': ref('ConsignmentView'), ...RDF_CONTENT },
      },
      304: { description: 'Not modified since the If-None-Match entity tag' },
      400: error('scope is not own, shared or all'),
      404: error('No such consignment, or none the caller may read (answered alike)'),
    },
  },
  {
    method: 'get',
    path: '/supply-chain/data-space/consignments/{id}/documents',
    operationId: 'listConsignmentDocuments',
    tag: 'Documents',
    authenticated: true,
    summary: 'The documents attached to one consignment',
    parameters: [consignmentId],
    responses: {
      200: json('The attachments', { type: 'array', items: ref('DocumentAttachment') }),
      400: error('A query parameter the list does not take'),
      404: error('No such consignment the caller may read'),
    },
  },
  {
    method: 'get',
    path: '/supply-chain/data-space/consignments/{id}/documents/{documentId}',
    operationId: 'getConsignmentDocument',
    tag: 'Documents',
    authenticated: true,
    summary: 'One document: its attachment as JSON, or the file itself when Accept names only non-JSON types',
    parameters: [
      consignmentId,
      pathId('documentId', "The document's id or identifier"),
      {
        name: 'revision',
        in: 'query',
        description: "A past revision's file (history[].href); the current one when omitted",
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    responses: {
      200: {
        description: "The attachment, or the file's bytes",
        content: { 'application/json': ref('DocumentAttachment'), '*/*': { type: 'string', format: 'binary' } },
      },
      400: error('revision is not a positive integer'),
      404: error('No such consignment, document or revision the caller may read, or its file could not be fetched'),
    },
  },
];
