import type { Principal } from '../auth/principal.js';
import type { FileOutcome } from '../documents/document-files.js';
import { GRAPHS, svc, XSD } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp } from '../store/quad-store.js';
import type { ConsignmentRecord } from './records.js';

export const DATE_TIME = `${XSD}dateTime`;

/** Who wrote a data graph and when: what the coverage rule and the read views know a graph by. */
export interface GraphOrigin {
  activity: string;
  principal: Principal;
  now: Date;
}

/** The metadata every data graph carries: its consignment, kind, publisher, time and place in the sequence. */
export function graphMetadata(meta: NQuadsBuilder, origin: GraphOrigin, graph: string, record: ConsignmentRecord, kind: string, root: string, seq: number): void {
  meta.iri(graph, svc('consignment'), record.consignment)
    .iri(graph, svc('kind'), svc(kind))
    .iri(graph, svc('publisher'), origin.principal.org.id)
    .literal(graph, svc('published'), origin.now.toISOString(), DATE_TIME)
    .literal(graph, svc('seq'), seq)
    .iri(graph, svc('root'), root)
    .iri(graph, svc('activity'), origin.activity);
}

/** Marks the consignment as changed now (its `updated`), when a graph is added to it. */
export function touch(record: ConsignmentRecord, now: Date): ChangeOp[] {
  return [
    { op: 'deleteMatching', subject: iriToString(record.consignment), predicate: iriToString(svc('updated')), object: null, graph: GRAPHS.metadata },
    { op: 'insert', nquads: new NQuadsBuilder(GRAPHS.metadata).literal(record.consignment, svc('updated'), now.toISOString(), DATE_TIME).toString() },
  ];
}

/** DocumentAttachment metadata of a revision's file, in the metadata graph. */
export function fileMetadata(meta: NQuadsBuilder, revisionGraph: string, file: FileOutcome): void {
  if (file.encodingFormat) meta.literal(revisionGraph, svc('encodingFormat'), file.encodingFormat);
  if (file.fileExtension) meta.literal(revisionGraph, svc('fileExtension'), file.fileExtension);
  if (file.ok) meta.literal(revisionGraph, svc('blobSha256'), file.sha256).literal(revisionGraph, svc('blobSize'), file.size);
  else meta.literal(revisionGraph, svc('fileError'), file.reason);
}
