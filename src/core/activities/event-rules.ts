import { stamp } from '../rdf/date-times.js';
import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import type { ActivityGraph } from './activity-graph.js';
import type { Principal } from '../auth/principal.js';
import { statusOps } from '../catalog/record-quads.js';
import type { ConsignmentRecord } from '../catalog/records.js';
import { ruleOf, type Effect } from './event-codes.js';
import { advance } from './status.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import { AS, svc, unece } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { writeGraph } from '../rdf/graph-writer.js';
import { iriToString, termToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';

const { DataFactory } = n3;
const CARRIER_FIELDS = ['carrierParty', 'carrierAssignedId'].map(unece);
const GENERATORS = [svc('generator'), `${AS}generator`];

/** The UN/LOCODEs the stored consignment is routed through (the rule of routing.ts, kept in its record). */
export async function storedRoute(store: QuadStore, queries: QueryBank, consignment: string): Promise<string[]> {
  const rows = await store.select(queries.bind('notify/route-locations', { consignment: iri(consignment) }));
  return rows.map((row) => row.get('location')!.value);
}

export async function routedThrough(store: QuadStore, queries: QueryBank, principal: Principal, consignment: string): Promise<boolean> {
  const route = new Set(await storedRoute(store, queries, consignment));
  return principal.org.locations.some((l) => route.has(l));
}

export interface EventInput {
  store: QuadStore;
  queries: QueryBank;
  nodeName: string;
  graph: ActivityGraph;
  record: ConsignmentRecord;
  eventGraph: string;
  typeCode: string | undefined;
  now: Date;
  bnodePrefix: string;
}

export interface EventEffects {
  /** The event's quads to store. */
  quads: Quad[];
  /** Further changes in the same commit: stamps on the event, the status, the carrier on the consignment. */
  ops: ChangeOp[];
  /** The consignment's status after the event (unchanged when the event does not advance it). */
  status: string;
}

/** What an accepted event does beyond being recorded (spec 3 and 6): its code's effect and status (event-codes.ts). */
export async function eventEffects(input: EventInput): Promise<EventEffects> {
  const { graph, record, typeCode } = input;
  const rule = ruleOf(typeCode);
  const effect = rule?.effect === undefined ? { quads: graph.objectQuads(), ops: [] } : await EFFECTS[rule.effect](input);
  const status = advance(record.status, typeCode);
  const ops = status === undefined ? effect.ops : [...effect.ops, ...statusOps(record, status)];
  return { quads: effect.quads, ops, status: status ?? record.status };
}

/** An effect's answer: the event's quads to store (as sent, or amended) and further changes in the same commit. */
type EffectOutcome = Pick<EventEffects, 'quads' | 'ops'>;

/** One function per effect an event code can name. */
const EFFECTS: Readonly<Record<Effect, (input: EventInput) => Promise<EffectOutcome>>> = {
  nodeStamps: async (input) => nodeStamps(input),
  carrierOnConsignment: async (input) => ({ quads: input.graph.objectQuads(), ops: await carrierOps(input) }),
};

/** Spec 2.1/6: the sender's generator is not trusted; the node names itself, and dates an undated event on arrival. */
function nodeStamps(input: EventInput): EffectOutcome {
  const { graph, eventGraph, now } = input;
  const quads = graph.objectQuads().filter((q) => !(same(q.subject, graph.object!) && GENERATORS.includes(q.predicate.value)));
  const stamps = new NQuadsBuilder(eventGraph).literal(eventGraph, svc('generator'), input.nodeName);
  if (graph.text(graph.object, 'occurrenceDateTime') === undefined) stamps.literal(eventGraph, unece('occurrenceDateTime'), stamp(now));
  return { quads, ops: [{ op: 'insert', nquads: stamps.toString() }] };
}

/**
 * A carrier booking that names carrierParty or carrierAssignedId sets them on the consignment, replacing
 * what it had. The state graph is rewritten whole (as an Update does) so no orphaned party nodes stay.
 */
async function carrierOps(input: EventInput): Promise<ChangeOp[]> {
  const { graph, record, store, queries, bnodePrefix } = input;
  const links = graph.index.about(graph.object!).filter((q) => CARRIER_FIELDS.includes(q.predicate.value));
  if (links.length === 0) return [];
  const replaced = new Set(links.map((q) => q.predicate.value));
  const stored = await store.construct(queries.bind('ingest/graph-quads', { graph: iri(record.stateGraph) }));
  const root = DataFactory.namedNode(record.globalId);
  const dropped = stored.filter((q) => same(q.subject, root) && replaced.has(q.predicate.value));
  const droppedNodes = new Set(
    reachable(
      stored,
      dropped.map((q) => q.object),
    ),
  );
  const kept = stored.filter((q) => !dropped.includes(q) && !droppedNodes.has(q));
  const fresh = [
    ...links.map((q) => DataFactory.quad(root, q.predicate, q.object)),
    ...graph.index.closure(links.map((q) => q.object).filter((o) => o.termType === 'BlankNode')),
  ];
  const g = iriToString(record.stateGraph);
  // Kept quads keep their blank-node labels (unique since their own write); the new ones get this write's prefix.
  const keptText = kept.map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)} ${g} .\n`).join('');
  return [
    {
      op: 'replaceGraph',
      graph: record.stateGraph,
      nquads: keptText + writeGraph(fresh, record.stateGraph, undefined, undefined, `${bnodePrefix}c`),
    },
  ];
}

const same = (a: Term, b: Term): boolean => a.termType === b.termType && a.value === b.value;

/** Quads describing the blank nodes reachable from `roots` (named nodes are not owned by the link). */
function reachable(quads: readonly Quad[], roots: Quad['object'][]): Quad[] {
  const out: Quad[] = [];
  const seen = new Set<string>();
  const queue = roots.filter((t) => t.termType === 'BlankNode');
  while (queue.length > 0) {
    const node = queue.pop()!;
    if (seen.has(node.value)) continue;
    seen.add(node.value);
    for (const q of quads) {
      if (!same(q.subject, node)) continue;
      out.push(q);
      if (q.object.termType === 'BlankNode') queue.push(q.object);
    }
  }
  return out;
}
