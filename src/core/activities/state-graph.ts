import { randomUUID } from 'node:crypto';
import type { GraphStaging } from '../ports/graph-staging.js';
import { stagesGraphs } from '../ports/graph-staging.js';
import type { QuadStore } from '../ports/quad-store.js';
import { writeGraphSteps } from '../rdf/graph-writer.js';
import { finish, type Steps } from '../util/slices.js';
import type { ActivityGraph } from './activity-graph.js';
import { bnodePrefix } from './bnode-prefix.js';
import { globalId as checkedGlobalId } from './handlers/fields.js';
import type { LoopTurns } from './loop-turns.js';
import { keepGlobalId } from './update-match.js';

/**
 * An activity this large (~50 KB of N-Quads) or larger has its state graph written before the lock; a
 * smaller one costs less than a slice, and is written under the lock in the tick of its decision.
 */
export const STAGE_MIN_QUADS = 300;

/** A Create's state graph: a fresh IRI and its N-Quads, with the staging that loaded it ahead, if one did. */
export interface StateGraph {
  graph: string;
  nquads: string;
  quads: number;
  staging?: GraphStaging;
}

/** The state graph a Create's consignment is stored in: its quads under a fresh graph IRI, the globalId in canonical form. */
export function stateGraphOf(graph: ActivityGraph, activity: string): StateGraph {
  return finish(stateGraphSteps(graph, activity));
}

/** stateGraphOf() in steps (util/slices.ts): the walk and the writing of a large graph (~18 ms for 640 items on a loaded machine). */
function* stateGraphSteps(graph: ActivityGraph, activity: string): Steps<StateGraph> {
  const globalId = checkedGlobalId(graph, graph.object, 'object');
  const sent = graph.text(graph.object, 'globalId');
  const objectQuads = graph.object ? yield* graph.index.closureSteps([graph.object]) : [];
  const quads = sent === globalId ? objectQuads : keepGlobalId(objectQuads, graph.object!, globalId);
  const stateGraph = `urn:uuid:${randomUUID()}`;
  return {
    graph: stateGraph,
    nquads: yield* writeGraphSteps(quads, stateGraph, graph.object, globalId, bnodePrefix({ activity })),
    quads: quads.length,
  };
}

/**
 * A large Create's state graph written before the ingest lock, and loaded into the store ahead of its
 * commit when the store stages graphs (ports/graph-staging.ts): one piece of the loop
 * per slice, in `owner`'s turns, so another organisation's request waits for one slice, not for a
 * whole graph, and under the lock only the decision and the publish run. Undefined when the payload
 * cannot make one (a bad globalId): the handler then refuses it under the lock, in its usual order.
 * The caller drops the staging once the lock is left, which does nothing once a commit published it.
 */
export async function stageStateGraph(
  store: QuadStore,
  turns: LoopTurns,
  owner: string,
  graph: ActivityGraph,
  activity: string,
): Promise<StateGraph | undefined> {
  if (!stagesGraphs(store) || graph.size < STAGE_MIN_QUADS) return undefined;
  let state: StateGraph;
  try {
    state = await turns.steps(owner, stateGraphSteps(graph, activity));
  } catch {
    return undefined;
  }
  const staging = store.stage(state.graph, state.nquads);
  if (!staging) return state;
  try {
    while (await turns.run(owner, () => staging.step()));
  } catch (error) {
    staging.drop();
    throw error;
  }
  return { ...state, staging };
}
