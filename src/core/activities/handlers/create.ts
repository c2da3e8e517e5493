import { randomUUID } from 'node:crypto';
import { stateGraphOf } from '../state-graph.js';
import { graphMetadata } from '../../catalog/graph-metadata.js';
import { newRecord } from '../../catalog/record-quads.js';
import type { ConsignmentRecord } from '../../catalog/records.js';
import { GRAPHS } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { routeLocations } from '../routing.js';
import { checkIdentifier, globalId as checkedGlobalId, required, sentId as sentIdOf } from './fields.js';
import { failure, type HandlerContext, type Outcome, type Step } from './handler.js';
import { stamp } from '../../rdf/date-times.js';

/** Create: a new consignment, its state graph and its record, unless its globalId or identifier is taken. */
export async function create(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'consignment-registry';
  const { graph, principal, now } = step;
  const globalId = checkedGlobalId(graph, graph.object, 'object');
  const identifier = required(graph, graph.object, 'identifier', 'object');
  checkIdentifier(identifier, globalId, 'object');
  const sentId = sentIdOf(graph, globalId, 'object', step.warnings);
  // Taken says no more than that: not whose, nor what (docs/decisions.md, "Identities").
  if ((await context.records.byGlobalId(globalId)) || step.namesNodeResource)
    return failure(appId, 'Conflict', `globalId ${globalId} is already in use`);
  if (await context.records.byIdentifier(principal.org.id, identifier)) {
    return failure(appId, 'Conflict', `Your organisation already has a consignment with identifier ${identifier}; use Update to change it`);
  }
  // Another consignment's URL answers to it (docs/decisions.md, "Sent ids"): taken, like a globalId.
  if (sentId !== undefined && (await context.records.bySentId(sentId))) return failure(appId, 'Conflict', `id ${sentId} is already in use`);
  const seq = context.nextSeq();
  const state = step.stateGraph ?? stateGraphOf(graph, step.activity);
  const routes = [...new Set(routeLocations(graph.index, graph.object!))];
  const record: ConsignmentRecord = {
    consignment: `urn:dataspace:consignment:${randomUUID()}`,
    owner: principal.org.id,
    globalId,
    identifier,
    stateGraph: state.graph,
    created: stamp(now),
    status: 'published',
    seq,
    routes,
    ...(sentId === undefined ? {} : { sentId }),
  };
  const sent = graph.text(graph.object, 'globalId');
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
    quads: state.quads,
    ops: [
      // A graph staged ahead is written as drop and insert: what did not stage it applies that as it reads.
      ...(state.staging ? [{ op: 'dropGraph' as const, graph: state.graph }] : []),
      { op: 'insert', nquads: state.nquads },
      { op: 'insert', nquads: meta.toString() },
    ],
    accepted: { kind: 'consignment', activityType: 'Create', consignment: record, graph: record.stateGraph },
    systemEvent: { objectId: globalId, objectType: 'Consignment', objectDetail: { identifier } },
  };
}
