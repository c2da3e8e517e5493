import { randomUUID } from 'node:crypto';
import { graphMetadata } from '../../catalog/graph-metadata.js';
import { newRecord } from '../../catalog/record-quads.js';
import type { ConsignmentRecord } from '../../catalog/records.js';
import { GRAPHS } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { writeGraph } from '../../rdf/graph-writer.js';
import { routeLocations } from '../routing.js';
import { keepGlobalId } from '../update-match.js';
import { checkIdentifier, globalId as checkedGlobalId, required, sentId as sentIdOf } from './fields.js';
import { bnodePrefix, failure, type HandlerContext, type Outcome, type Step } from './handler.js';
import { stamp } from '../../rdf/date-times.js';

/** Create: a new consignment, its state graph and its record, unless its globalId or identifier is taken. */
export async function create(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'consignment-registry';
  const { graph, principal, now } = step;
  const globalId = checkedGlobalId(graph, graph.object, 'object');
  const identifier = required(graph, graph.object, 'identifier', 'object');
  checkIdentifier(identifier, globalId, 'object');
  const sentId = sentIdOf(graph, globalId, 'object');
  // Taken says no more than that: not whose, nor what (docs/decisions.md, "Identities").
  if ((await context.records.byGlobalId(globalId)) || step.namesNodeResource)
    return failure(appId, 'Conflict', `globalId ${globalId} is already in use`);
  if (await context.records.byIdentifier(principal.org.id, identifier)) {
    return failure(appId, 'Conflict', `Your organisation already has a consignment with identifier ${identifier}; use Update to change it`);
  }
  // Another consignment's URL answers to it (docs/decisions.md, "Sent ids"): taken, like a globalId.
  if (sentId !== undefined && (await context.records.bySentId(sentId))) return failure(appId, 'Conflict', `id ${sentId} is already in use`);
  const seq = context.nextSeq();
  const routes = [...new Set(routeLocations(graph.index, graph.object!))];
  const record: ConsignmentRecord = {
    consignment: `urn:dataspace:consignment:${randomUUID()}`,
    owner: principal.org.id,
    globalId,
    identifier,
    stateGraph: `urn:uuid:${randomUUID()}`,
    created: stamp(now),
    status: 'published',
    seq,
    routes,
    ...(sentId === undefined ? {} : { sentId }),
  };
  const sent = graph.text(graph.object, 'globalId');
  const quads = sent === globalId ? graph.objectQuads() : keepGlobalId(graph.objectQuads(), graph.object!, globalId);
  if (sent !== globalId)
    step.warnings.push({
      path: 'object.globalId',
      value: sent ?? globalId,
      message: `globalId ${sent} is stored in its canonical (lower-case) form ${globalId}`,
    });
  const meta = newRecord(new NQuadsBuilder(GRAPHS.metadata), record);
  graphMetadata(meta, step, record.stateGraph, record, 'ConsignmentState', globalId, seq);
  return {
    ok: true,
    appId,
    quads: quads.length,
    ops: [
      { op: 'insert', nquads: writeGraph(quads, record.stateGraph, graph.object, globalId, bnodePrefix(step)) },
      { op: 'insert', nquads: meta.toString() },
    ],
    accepted: { kind: 'consignment', activityType: 'Create', consignment: record, graph: record.stateGraph },
    systemEvent: { objectId: globalId, objectType: 'Consignment', objectDetail: { identifier } },
  };
}
