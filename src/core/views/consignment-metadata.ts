import type { Quad, Term } from '@rdfjs/types';
import { graphInfo, type GraphInfo } from '../catalog/graph-metadata.js';
import { RDF_TYPE, SVC } from '../rdf/namespaces.js';

/** A revision's file as recorded at Add (issue 6). */
export interface FileInfo {
  encodingFormat?: string;
  fileExtension?: string;
  sha256?: string;
  size?: number;
  error?: string;
}

export interface Revision {
  graph: string;
  revision: number;
  published: string;
  file: FileInfo;
}

export interface DocumentRow {
  document: string;
  identifier: string;
  publisher: string;
  current: string;
  revisions: Revision[];
}

/** A system event about the consignment, as the activity log holds it (core/catalog/system-events.ts). */
export interface SystemEventRow {
  seq: number;
  publisher: string;
  json: string;
}

/** What the node keeps about one consignment beside its data graphs' content. */
export interface ConsignmentMetadata {
  /** Each data graph's record, in no particular order. */
  graphs: GraphInfo[];
  /** Its documents with their revisions, in registration order. */
  documents: DocumentRow[];
  /** Its system events, in no particular order. */
  systemEvents: SystemEventRow[];
}

/** The fields every data graph's record has (core/catalog/graph-metadata.ts): a graph lacking one is left out, as a join would. */
const RECORD_FIELDS = ['kind', 'publisher', 'published', 'seq', 'root', 'activity'];
const DOCUMENT_RECORD = `${SVC}DocumentRecord`;

/** The properties of each subject, by the local name of the svc: predicate ('type' for rdf:type), with the subject as 'graph'. */
function subjects(triples: Iterable<Quad>): Map<string, Map<string, Term>> {
  const bySubject = new Map<string, Map<string, Term>>();
  for (const { subject, predicate, object } of triples) {
    const field = predicate.value === RDF_TYPE ? 'type' : predicate.value.startsWith(SVC) ? predicate.value.slice(SVC.length) : undefined;
    if (field === undefined) continue;
    let fields = bySubject.get(subject.value);
    if (!fields) bySubject.set(subject.value, (fields = new Map([['graph', subject]])));
    fields.set(field, object);
  }
  return bySubject;
}

/**
 * Tells apart the subjects that name the consignment (views/consignment-metadata.rq,
 * views/documents-of-consignment.rq): data graphs, document records and system events.
 */
export function consignmentMetadata(triples: Iterable<Quad>): ConsignmentMetadata {
  const graphs: GraphInfo[] = [];
  const systemEvents: SystemEventRow[] = [];
  const documents = new Map<string, { record: Map<string, Term>; revisions: Revision[] }>();
  const revisionsOf = new Map<string, Revision[]>();
  for (const [subject, fields] of subjects(triples)) {
    const value = (field: string) => fields.get(field)?.value;
    if (fields.get('type')?.value === DOCUMENT_RECORD) {
      documents.set(subject, { record: fields, revisions: [] });
      continue;
    }
    if (fields.has('systemEventOf')) {
      systemEvents.push({ seq: Number(value('seq')), publisher: value('publisher')!, json: value('json')! });
      continue;
    }
    if (RECORD_FIELDS.every((field) => fields.has(field))) graphs.push(graphInfo(fields));
    const document = value('revisionOf');
    if (document === undefined) continue;
    const size = value('blobSize');
    let revisions = revisionsOf.get(document);
    if (!revisions) revisionsOf.set(document, (revisions = []));
    revisions.push({
      graph: subject,
      revision: Number(value('revision')),
      published: value('published')!,
      file: {
        encodingFormat: value('encodingFormat'),
        fileExtension: value('fileExtension'),
        sha256: value('blobSha256'),
        size: size === undefined ? undefined : Number(size),
        error: value('fileError'),
      },
    });
  }
  const docs: (DocumentRow & { seq: number })[] = [];
  for (const [document, { record }] of documents) {
    const revisions = (revisionsOf.get(document) ?? []).sort((a, b) => a.revision - b.revision);
    docs.push({
      document,
      identifier: record.get('documentIdentifier')!.value,
      publisher: record.get('publisher')!.value,
      current: record.get('currentRevision')!.value,
      seq: Number(record.get('seq')!.value),
      revisions,
    });
  }
  return { graphs, documents: docs.sort((a, b) => a.seq - b.seq).map(({ seq: _seq, ...doc }) => doc), systemEvents };
}
