import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import { DATE_TIME } from '../../catalog/graph-metadata.js';
import type { ConsignmentRecord } from '../../catalog/records.js';
import { iri } from '../../queries/query-bank.js';
import { GRAPHS, svc, unece } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { QuadIndex } from '../../rdf/quad-index.js';
import { writeGraph } from '../../rdf/graph-writer.js';
import { iriToString } from '../../rdf/terms.js';
import type { ChangeOp } from '../../store/quad-store.js';
import { keepItemPlaces } from '../item-order.js';
import { routeLocations } from '../routing.js';
import { keepGlobalId, matchUpdate } from '../update-match.js';
import { checkIdentifier, globalId, required } from './fields.js';
import { bnodePrefix, failure, type HandlerContext, type Outcome, type Step } from './handler.js';

/** Update: replaces a consignment's state graph, matched by the owner's identifier (see update-match.ts). */
export async function update(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'consignment-registry';
  const { graph, principal, now } = step;
  const sentGlobalId = globalId(graph, graph.object, 'object');
  const identifier = required(graph, graph.object, 'identifier', 'object');
  // Decided before the match, so the answer does not depend on what exists (catalog/identities.ts).
  checkIdentifier(identifier, sentGlobalId, 'object');
  const match = matchUpdate(context.records, principal.org.id, sentGlobalId, identifier);
  if (!match.ok) return failure(appId, match.error.name, match.error.message);
  const record = match.record;
  const kept = record.globalId;
  checkIdentifier(identifier, kept, 'object');
  if (match.warning) step.warnings.push({ path: 'object.globalId', message: match.warning, value: sentGlobalId });
  let quads = keepGlobalId(graph.objectQuads(), graph.object!, kept);
  // Spec 4.2: an omitted includedConsignment leaves the items as they were; any list replaces them.
  const keepsItems = !('includedConsignment' in step.objectJson);
  if (keepsItems) quads = quads.concat(await includedConsignments(context, record, kept));
  else quads = keepItemPlaces(quads, graph.object!, await stateQuads(context, record), n3.DataFactory.namedNode(kept));
  const seq = context.nextSeq();
  const index = new QuadIndex(quads);
  const meta = new NQuadsBuilder(GRAPHS.metadata)
    .literal(record.consignment, svc('identifier'), identifier)
    .literal(record.consignment, svc('updated'), now.toISOString(), DATE_TIME);
  const routes = [...new Set(routeLocations(index, graph.object!))];
  for (const location of routes) meta.literal(record.consignment, svc('routeLocation'), location);
  const c = iriToString(record.consignment);
  return {
    ok: true, appId, quads: quads.length,
    ops: [
      { op: 'replaceGraph', graph: record.stateGraph, nquads: writeGraph(quads, record.stateGraph, graph.object, kept, bnodePrefix(step)) },
      ...['identifier', 'updated', 'routeLocation'].map((p): ChangeOp => ({ op: 'deleteMatching', subject: c, predicate: iriToString(svc(p)), object: null, graph: GRAPHS.metadata })),
      ...['activity', 'updated'].map((p): ChangeOp => ({ op: 'deleteMatching', subject: iriToString(record.stateGraph), predicate: iriToString(svc(p)), object: null, graph: GRAPHS.metadata })),
      {
        op: 'insert',
        nquads: meta.toString() + new NQuadsBuilder(GRAPHS.metadata)
          .iri(record.stateGraph, svc('activity'), step.activity)
          .literal(record.stateGraph, svc('updated'), now.toISOString(), DATE_TIME)
          .literal(record.stateGraph, svc('revisionSeq'), seq)
          .toString(),
      },
    ],
    accepted: { kind: 'consignment', activityType: 'Update', consignment: { ...record, identifier, routes }, graph: record.stateGraph },
    systemEvent: { objectId: kept, objectType: 'Consignment', objectDetail: { identifier } },
  };
}

function stateQuads(context: HandlerContext, record: ConsignmentRecord): Promise<Quad[]> {
  return context.store.construct(context.queries.bind('ingest/graph-quads', { graph: iri(record.stateGraph) }));
}

/** The stored includedConsignment items of a consignment, to carry into its replacement. */
async function includedConsignments(context: HandlerContext, record: ConsignmentRecord, globalId: string): Promise<Quad[]> {
  const stored = await stateQuads(context, record);
  const index = new QuadIndex(stored);
  const root = stored.find((q) => q.subject.termType === 'NamedNode' && q.subject.value === globalId)?.subject;
  if (!root) return [];
  const links = index.about(root).filter((q) => q.predicate.value === unece('includedConsignment'));
  return [...links, ...index.closure(links.map((q) => q.object))];
}
