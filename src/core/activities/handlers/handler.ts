import type { Principal } from '../../auth/principal.js';
import type { SystemEventObject } from '../../catalog/system-events.js';
import type { ConsignmentCatalog } from '../../ports/consignment-catalog.js';
import type { LogWarning, TaskError } from '../../catalog/log-entry.js';
import type { FileOutcome } from '../../documents/document-files.js';
import type { QueryBank } from '../../queries/query-bank.js';
import type { ChangeOp, QuadStore } from '../../ports/quad-store.js';
import type { Accepted } from '../accepted.js';
import type { ActivityGraph } from '../activity-graph.js';
import type { StateGraph } from '../state-graph.js';

/** One activity on its way through a handler, decided under the ingest lock. */
export interface Step {
  activity: string;
  /** The object as sent, for what RDF cannot tell apart (an empty list from an omitted one). */
  objectJson: Record<string, unknown>;
  principal: Principal;
  graph: ActivityGraph;
  now: Date;
  /** The Document's file, fetched before the lock so a slow server never holds up other activities. */
  file?: FileOutcome;
  /** A Create's globalId already names one of the node's resources (an event, a document, a graph, an activity): checked before the lock. */
  namesNodeResource?: boolean;
  /** What was accepted but not as sent (spec-silent forms, a globalId kept): told in the log entry. */
  warnings: LogWarning[];
  /** A Create's state graph, written (and staged, when large) before the lock: state-graph.ts. */
  stateGraph?: StateGraph;
}

/** A handler's answer: the changes to commit, or the task error the log entry tells. */
export type Outcome =
  | { ok: true; appId: string; ops: ChangeOp[]; quads: number; accepted: Accepted; systemEvent: SystemEventObject }
  | { ok: false; appId: string; error: TaskError };

/** What the handlers share from the ingest: the store, the records index and the sequence. */
export interface HandlerContext {
  store: QuadStore;
  queries: QueryBank;
  nodeName: string;
  records: ConsignmentCatalog;
  /** Whether a principal may read a consignment (record IRI) under the policies; a location operator's match needs it. */
  canRead?: (principal: Principal, consignment: string) => Promise<boolean>;
  nextSeq(): number;
}

export type Handler = (step: Step, context: HandlerContext) => Promise<Outcome>;

export const failure = (appId: string, name: string, message: string): Outcome => ({ ok: false, appId, error: { name, message } });
