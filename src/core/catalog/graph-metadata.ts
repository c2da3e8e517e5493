import type { Principal } from '../auth/principal.js';
import type { FileOutcome } from '../documents/document-files.js';
import { GRAPHS, SVC, svc, XSD } from '../rdf/namespaces.js';
import type { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { Bindings, ChangeOp } from '../ports/quad-store.js';
import type { ConsignmentRecord } from './records.js';
import { stamp } from '../rdf/date-times.js';

export const DATE_TIME = `${XSD}dateTime`;

/** A data graph's metadata as the read side knows it (graphMetadata writes it). */
export interface GraphInfo {
  graph: string;
  kind: 'ConsignmentState' | 'Event' | 'DocumentRevision';
  publisher: string;
  published: string;
  seq: number;
  root: string;
  activity: string;
}

/** A data graph's metadata, from a row of the views/graph-record fragment or its properties by name (core/views/consignment-metadata.ts). */
export function graphInfo(row: Bindings): GraphInfo {
  const v = (name: string) => row.get(name)!.value;
  return {
    graph: v('graph'),
    kind: v('kind').slice(SVC.length) as GraphInfo['kind'],
    publisher: v('publisher'),
    published: v('published'),
    seq: Number(v('seq')),
    root: v('root'),
    activity: v('activity'),
  };
}

/** Who wrote a data graph and when: what the coverage rule and the read views know a graph by. */
export interface GraphOrigin {
  activity: string;
  principal: Principal;
  now: Date;
}

/** The metadata every data graph carries: its consignment, kind, publisher, time and place in the sequence. */
export function graphMetadata(
  meta: NQuadsBuilder,
  origin: GraphOrigin,
  graph: string,
  record: ConsignmentRecord,
  kind: string,
  root: string,
  seq: number,
): void {
  meta
    .iri(graph, svc('consignment'), record.consignment)
    .iri(graph, svc('kind'), svc(kind))
    .iri(graph, svc('publisher'), origin.principal.org.id)
    .literal(graph, svc('published'), stamp(origin.now), DATE_TIME)
    .literal(graph, svc('seq'), seq)
    .iri(graph, svc('root'), root)
    .iri(graph, svc('activity'), origin.activity);
}

/**
 * A state graph replaced by an Update: its activity and updated time replaced, its revision's place in
 * the sequence added. Gives the deletes to run before `meta` is inserted.
 */
export function revisedGraph(meta: NQuadsBuilder, graph: string, origin: Pick<GraphOrigin, 'activity' | 'now'>, seq: number): ChangeOp[] {
  meta
    .iri(graph, svc('activity'), origin.activity)
    .literal(graph, svc('updated'), stamp(origin.now), DATE_TIME)
    .literal(graph, svc('revisionSeq'), seq);
  return ['activity', 'updated'].map((p): ChangeOp => ({
    op: 'deleteMatching',
    subject: iriToString(graph),
    predicate: iriToString(svc(p)),
    object: null,
    graph: GRAPHS.metadata,
  }));
}

/** DocumentAttachment metadata of a revision's file, in the metadata graph. */
export function fileMetadata(meta: NQuadsBuilder, revisionGraph: string, file: FileOutcome): void {
  if (file.encodingFormat) meta.literal(revisionGraph, svc('encodingFormat'), file.encodingFormat);
  if (file.fileExtension) meta.literal(revisionGraph, svc('fileExtension'), file.fileExtension);
  if (file.ok) meta.literal(revisionGraph, svc('blobSha256'), file.sha256).literal(revisionGraph, svc('blobSize'), file.size);
  else meta.literal(revisionGraph, svc('fileError'), file.reason);
}
