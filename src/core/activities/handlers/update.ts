import type { Quad } from '@rdfjs/types';
import { revisedGraph } from '../../catalog/graph-metadata.js';
import { revisedRecord } from '../../catalog/record-quads.js';
import type { ConsignmentRecord } from '../../catalog/records.js';
import { iri } from '../../queries/query-bank.js';
import { GRAPHS, unece } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { QuadIndex } from '../../rdf/quad-index.js';
import { writeGraph } from '../../rdf/graph-writer.js';
import { routeLocations } from '../routing.js';
import { keepGlobalId, matchUpdate } from '../update-match.js';
import { checkIdentifier, globalId, required, sentId as sentIdOf } from './fields.js';
import { bnodePrefix } from '../bnode-prefix.js';
import { failure, type HandlerContext, type Outcome, type Step } from './handler.js';

/** Update: replaces a consignment's state graph, matched by the owner's identifier (see update-match.ts). */
export async function update(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'consignment-registry';
  const { graph, principal, now } = step;
  const sentGlobalId = globalId(graph, graph.object, 'object');
  const identifier = required(graph, graph.object, 'identifier', 'object');
  // Decided before the match, so the answer does not depend on what exists (core/catalog/identities.ts).
  checkIdentifier(identifier, sentGlobalId, 'object');
  const match = await matchUpdate(context.records, principal.org.id, sentGlobalId, identifier);
  if (!match.ok) return failure(appId, match.error.name, match.error.message);
  const record = match.record;
  const kept = record.globalId;
  checkIdentifier(identifier, kept, 'object');
  const sentId = sentIdOf(graph, kept, 'object', step.warnings);
  const holder = sentId === undefined ? undefined : await context.records.bySentId(sentId);
  if (holder && holder.consignment !== record.consignment) return failure(appId, 'Conflict', `id ${sentId} is already in use`);
  if (match.warning) step.warnings.push({ path: 'object.globalId', message: match.warning, value: sentGlobalId });
  let quads = keepGlobalId(graph.objectQuads(), graph.object!, kept);
  // Spec 4.2: an omitted includedConsignment leaves the items as they were; any list replaces them,
  // and the complete list sent is also their order (its positions, item-order.ts; issue 47).
  if (!('includedConsignment' in step.objectJson)) quads = quads.concat(await includedConsignments(context, record, kept));
  const seq = context.nextSeq();
  const index = new QuadIndex(quads);
  const routes = [...new Set(routeLocations(index, graph.object!))];
  const meta = new NQuadsBuilder(GRAPHS.metadata);
  const { sentId: _previous, ...unsent } = record;
  const revised: ConsignmentRecord = { ...unsent, identifier, routes, ...(sentId === undefined ? {} : { sentId }) };
  const cleared = [
    ...revisedRecord(meta, record, { identifier, updated: now, routes, sentId }),
    ...revisedGraph(meta, record.stateGraph, step, seq),
  ];
  return {
    ok: true,
    appId,
    quads: quads.length,
    ops: [
      { op: 'replaceGraph', graph: record.stateGraph, nquads: writeGraph(quads, record.stateGraph, graph.object, kept, bnodePrefix(step)) },
      ...cleared,
      { op: 'insert', nquads: meta.toString() },
    ],
    accepted: { kind: 'consignment', activityType: 'Update', consignment: revised, graph: record.stateGraph },
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
