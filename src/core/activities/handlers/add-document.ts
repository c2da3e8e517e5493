import { randomUUID } from 'node:crypto';
import { fileMetadata, graphMetadata } from '../../catalog/graph-metadata.js';
import { touch } from '../../catalog/record-quads.js';
import { GRAPHS, RDF_TYPE, svc } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { writeGraph } from '../../rdf/graph-writer.js';
import { iriToString } from '../../rdf/terms.js';
import { documentLink } from '../consignment-links.js';
import { required } from './fields.js';
import { bnodePrefix } from '../bnode-prefix.js';
import type { HandlerContext, Outcome, Step } from './handler.js';
import { target } from './target.js';

/** Add of a Document: a new revision graph; the first revision of an identifier also makes its record. */
export async function addDocument(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'document-store';
  const record = await target(step, context, appId);
  if ('ok' in record) return record;
  const { graph, now, principal } = step;
  const identifier = required(graph, graph.object, 'identifier', 'object');
  const existing = await context.records.document(record.consignment, identifier);
  const revisionGraph = `urn:uuid:${randomUUID()}`;
  const document = existing?.document ?? `urn:uuid:${randomUUID()}`;
  const revision = (existing?.revision ?? 0) + 1;
  const seq = context.nextSeq();
  const quads = graph.objectQuads();
  const meta = new NQuadsBuilder(GRAPHS.metadata);
  graphMetadata(meta, step, revisionGraph, record, 'DocumentRevision', revisionGraph, seq);
  meta.iri(revisionGraph, svc('revisionOf'), document).literal(revisionGraph, svc('revision'), revision);
  if (!existing) {
    meta
      .iri(document, RDF_TYPE, svc('DocumentRecord'))
      .iri(document, svc('consignment'), record.consignment)
      .literal(document, svc('documentIdentifier'), identifier)
      .iri(document, svc('publisher'), principal.org.id)
      .literal(document, svc('seq'), seq);
  }
  meta.iri(document, svc('currentRevision'), revisionGraph);
  if (step.file) fileMetadata(meta, revisionGraph, step.file);
  return {
    ok: true,
    appId,
    quads: quads.length,
    ops: [
      {
        op: 'insert',
        nquads:
          writeGraph(quads, revisionGraph, graph.object, revisionGraph, bnodePrefix(step)) + documentLink(record.globalId, revisionGraph),
      },
      ...touch(record, now),
      {
        op: 'deleteMatching',
        subject: iriToString(document),
        predicate: iriToString(svc('currentRevision')),
        object: null,
        graph: GRAPHS.metadata,
      },
      { op: 'insert', nquads: meta.toString() },
    ],
    accepted: {
      kind: 'document',
      activityType: 'Add',
      consignment: record,
      graph: revisionGraph,
      revision,
      ...(!existing && { document: { iri: document, seq } }),
    },
    systemEvent: { objectId: document, objectType: 'Document', objectDetail: { identifier, documentRevision: revision } },
  };
}
