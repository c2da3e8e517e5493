import { randomUUID } from 'node:crypto';
import { graphMetadata } from '../../catalog/graph-metadata.js';
import { touch } from '../../catalog/record-quads.js';
import { GRAPHS, svc } from '../../rdf/namespaces.js';
import { NQuadsBuilder } from '../../rdf/nquads.js';
import { writeGraph } from '../../rdf/graph-writer.js';
import { eventLink } from '../consignment-links.js';
import { ruleOf } from '../event-codes.js';
import { eventEffects } from '../event-rules.js';
import { checkSender } from '../roles.js';
import { bnodePrefix } from '../bnode-prefix.js';
import type { HandlerContext, Outcome, Step } from './handler.js';
import { target } from './target.js';

/** Add of a SupplyChainEvent: a new event graph on the target consignment, with the status it implies. */
export async function addEvent(step: Step, context: HandlerContext): Promise<Outcome> {
  const appId = 'event-log';
  const typeCode = step.graph.text(step.graph.object, 'typeCode');
  checkSender(step.principal, typeCode);
  const record = await target(step, context, appId, ruleOf(typeCode)?.sender === 'locationOperator');
  if ('ok' in record) return record;
  const { graph, now } = step;
  const eventGraph = `urn:uuid:${randomUUID()}`;
  const seq = context.nextSeq();
  const effects = await eventEffects({
    store: context.store,
    queries: context.queries,
    nodeName: context.nodeName,
    graph,
    record,
    eventGraph,
    typeCode,
    now,
    bnodePrefix: bnodePrefix(step),
  });
  const quads = effects.quads;
  const meta = new NQuadsBuilder(GRAPHS.metadata);
  graphMetadata(meta, step, eventGraph, record, 'Event', eventGraph, seq);
  if (typeCode) meta.literal(eventGraph, svc('typeCode'), typeCode);
  return {
    ok: true,
    appId,
    quads: quads.length,
    ops: [
      {
        op: 'insert',
        nquads: writeGraph(quads, eventGraph, graph.object, eventGraph, bnodePrefix(step)) + eventLink(record.globalId, eventGraph),
      },
      ...effects.ops,
      ...touch(record, now),
      { op: 'insert', nquads: meta.toString() },
    ],
    accepted: { kind: 'event', activityType: 'Add', consignment: { ...record, status: effects.status }, graph: eventGraph, typeCode },
    systemEvent: { objectId: eventGraph, objectType: 'SupplyChainEvent', objectDetail: typeCode ? { typeCode } : {} },
  };
}
