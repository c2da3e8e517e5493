import { randomUUID } from 'node:crypto';
import { checkEnvelope } from './envelope.js';
import { checkJsonShape } from './limits.js';
import { checkRole } from './roles.js';
import { checkItemIdentifiers } from './item-identifiers.js';
import {
  activityIdOf,
  originalEntry,
  ProcessedActivities,
  type IdempotencyWindow,
  type ProcessedActivityIds,
  type Replay,
} from './idempotency.js';
import { digestSteps } from './payload-digest.js';
import { InlineReader, type PayloadCheck, type PayloadReader } from './payload-reader.js';
import { ActivityGraph } from './activity-graph.js';
import type { WriteContributor } from './accepted.js';
import { normaliseForms, quoteSentValues } from './payload-forms.js';
import { withPositions } from './item-order.js';
import type { HandlerContext, Outcome, Step } from './handlers/handler.js';
import { checkActor, decide, handlerKey } from './decide.js';
import { buildChange, type ChangeContext, type Sent } from './build-change.js';
import type { Principal } from '../auth/principal.js';
import type { ActivityLogEntry } from '../catalog/log-entry.js';
import { ConsignmentIndex } from '../ports/memory-consignment-catalog.js';
import type { ConsignmentCatalog } from '../ports/consignment-catalog.js';
import { FairSlots } from '../util/fair-slots.js';
import { nextTurn } from '../util/next-turn.js';
import { LoopTurns } from './loop-turns.js';
import { Sequence } from '../catalog/sequence.js';
import { Conflict } from '../errors.js';
import { canonicalGlobalId, isGlobalIdForm } from '../catalog/identities.js';
import type { QueryBank } from '../queries/query-bank.js';
import { NodeResources } from './node-resources.js';
import type { QuadStore } from '../ports/quad-store.js';
import type { DocumentFiles } from '../documents/document-files.js';
import { stamp } from '../rdf/date-times.js';
import { stageStateGraph } from './state-graph.js';
import { systemClock, type Clock } from '../ports/clock.js';

export interface IngestDeps {
  store: QuadStore;
  queries: QueryBank;
  nodeName: string;
  /** Turns an activity's JSON into checked quads (on worker threads in a running node). */
  reader?: PayloadReader;
  /** The shapes, for the default reader on this thread. */
  payloadCheck?: PayloadCheck;
  /** Fetches and keeps a Document's file (issue 6); without it documents are recorded without files. */
  files?: DocumentFiles;
  /** Whether a principal may read a consignment (record IRI) under the policies; a location operator's match needs it. */
  canRead?: (principal: Principal, consignment: string) => Promise<boolean>;
  contributors?: WriteContributor[];
  /** The node's one consignment index, which the read side lists and finds over too; one of its own by default. */
  index?: ConsignmentCatalog;
  /** The node's publication sequence, shared with the writers of signals' system events; started by `init`. */
  sequence?: Sequence;
  /** The time stamped on entries and records, and the idempotency window's now. */
  clock?: Clock;
  /** How long and how many activity ids are remembered for idempotency (7 days, 100,000 per actor by default). */
  idempotencyWindow?: IdempotencyWindow;
  /** Where applied activity ids are looked up: in memory over `idempotencyWindow` by default, a replica's in the store. */
  activityIds?: ProcessedActivityIds;
}

/**
 * The inbox pipeline after authentication: envelope → JSON-LD → shapes → authorise actor →
 * decide under one lock (decide.ts) → build the change (build-change.ts) → one atomic commit (data
 * graph, metadata, log entry, system event), noted as an accepted activity for the change feed's
 * followers (caches, publication order, signals).
 */
export class Ingest {
  private readonly sequence: Sequence;
  /** Writes commit one at a time, organisations in turn (a burst of one waits for itself, not others). */
  private readonly lock = new FairSlots({ slots: 1 });
  /** The main-thread checks before a payload's reader, one piece at a time, organisations in turn. */
  private readonly turns = new LoopTurns();
  /** The consignment index the handlers decide on; the ingest tells it every accepted write at commit. */
  readonly records: ConsignmentCatalog;
  private readonly reader: PayloadReader;
  private readonly now: () => Date;
  private readonly processed: ProcessedActivityIds;
  private readonly handlers: HandlerContext;
  private readonly changeContext: ChangeContext;
  /** What a Create's globalId must not name: asked for the Creates arriving together. */
  private readonly nodeResources: NodeResources;

  constructor(private readonly deps: IngestDeps) {
    this.sequence = deps.sequence ?? new Sequence();
    this.records = deps.index ?? new ConsignmentIndex(deps.store, deps.queries);
    this.reader = deps.reader ?? new InlineReader(deps.payloadCheck);
    const clock = deps.clock ?? systemClock;
    this.now = () => clock.now();
    this.processed = deps.activityIds ?? new ProcessedActivities(deps.store, deps.queries, deps.idempotencyWindow);
    const { store } = deps;
    this.nodeResources = new NodeResources(store.activityLog === store ? [store] : [store, store.activityLog], deps.queries);
    this.handlers = {
      store: deps.store,
      queries: deps.queries,
      nodeName: deps.nodeName,
      records: this.records,
      canRead: deps.canRead,
      nextSeq: () => this.sequence.next(),
    };
    this.changeContext = {
      nodeName: deps.nodeName,
      now: this.now,
      nextSeq: () => this.sequence.next(),
      contributors: deps.contributors ?? [],
    };
  }

  async init(): Promise<void> {
    this.records.startLoading();
    this.sequence.start(await this.records.maxSeq());
    await this.processed.start(this.now());
  }

  async receive(body: unknown, principal: Principal): Promise<ActivityLogEntry> {
    const { forms, envelope, activityId } = await this.turns.run(principal.org.id, () => {
      // Limits before any work: the forms and positions below walk the JSON before a reader sees it.
      checkJsonShape(body);
      // Nulls dropped, dates and codes in their stored forms: what every step below reads.
      const forms = normaliseForms(body);
      const envelope = checkEnvelope(forms.json);
      checkRole(envelope, principal);
      if (envelope.type !== 'Add') checkItemIdentifiers(envelope.object);
      return { forms, envelope, activityId: activityIdOf(forms.json) };
    });
    // In slices of its own (it grows with the payload: bench/results/2026-12-08-comment-figures.md), and
    // only for an activity with an id.
    const digest = activityId === undefined ? '' : await this.turns.steps(principal.org.id, digestSteps(forms.json));
    // A retried activity is answered before any work; the check is repeated under the lock for races.
    const seen = activityId === undefined ? undefined : await this.processed.lookup(principal.org.id, activityId, digest, this.now());
    const replay = seen?.replay && (await this.replay(seen.replay, principal, activityId!));
    if (replay) return replay;
    const graph = new ActivityGraph(
      await this.reader.read(withPositions(forms.json), principal.org.id).catch((error: unknown) => {
        quoteSentValues(error, forms.json);
        throw error;
      }),
    );
    checkActor(graph, principal);
    const key = handlerKey(envelope.type, graph);
    const activity = `urn:uuid:${randomUUID()}`;
    const sent: Sent = { type: envelope.type, activityId, digest, started: this.now() };
    // Files are fetched only for a caller who may write the target: anyone else's Add fails under the lock.
    const file =
      key === 'add-document' && this.deps.files && (await this.mayWrite(graph, principal))
        ? await this.deps.files.prepare(graph.text(graph.object, 'uRIId'), principal.org.id)
        : undefined;
    // Before the lock: a resource exists before anyone can learn its name, so no write in between can change the answer.
    const namesNodeResource = key === 'create' && (await this.namesNodeResource(graph));
    // Before the lock too, a slice a turn: a large Create's graph, unseen until the commit that names it.
    await this.records.ready();
    const stateGraph = key === 'create' ? await stageStateGraph(this.deps.store, this.turns, principal.org.id, graph, activity) : undefined;
    const { logEntry, durable } = await this.lock
      .run(principal.org.id, async () => {
        // A turn of the loop between two commits: the lock hands over at once, and without it one
        // organisation's queued commits ran back to back with no other request in between.
        await nextTurn();
        // Again under the lock: a commit the store refused while this one waited has the records read anew.
        await this.records.ready();
        const hit = await seen?.again(this.now());
        const again = hit && (await this.replay(hit, principal, activityId!));
        if (again) return { logEntry: again, durable: Promise.resolve() };
        const step: Step = {
          activity,
          objectJson: envelope.object,
          principal,
          graph,
          now: this.now(),
          file,
          namesNodeResource,
          warnings: [...forms.warnings],
          stateGraph,
        };
        return this.commit(await decide(key, step, this.handlers, forms.json), step, sent);
      })
      .finally(() => stateGraph?.staging?.drop());
    // Durable, and every follower of the change feed has it: only now is the activity acknowledged.
    await durable;
    return logEntry;
  }

  /** Under the lock: the outcome's change committed, and the catalog and idempotency window told at commit. */
  private async commit(outcome: Outcome, step: Step, sent: Sent): Promise<{ logEntry: ActivityLogEntry; durable: Promise<void> }> {
    const { activity, principal } = step;
    const { logEntry, change } = await buildChange(outcome, step, sent, this.changeContext);
    const keepsId = outcome.ok ? sent.activityId : undefined;
    if (keepsId !== undefined) await this.processed.claim?.(principal.org.id, keepsId, sent.digest, activity, step.now);
    const { durable } = await this.deps.store.commit(change).catch((error: unknown) => {
      for (const contributor of this.changeContext.contributors) contributor.abandon(activity);
      throw error;
    });
    // At commit, from what the write knows: the read side sees it without reading the store again,
    // the next write's decision at once; a catalog kept apart from the store once the store has it.
    const kept = outcome.ok ? this.records.accepted(outcome.accepted, stamp(step.now), durable) : Promise.resolve();
    kept.catch(() => undefined);
    if (keepsId !== undefined) this.processed.remember(principal.org.id, keepsId, sent.digest, activity, step.now);
    return { logEntry, durable: durable.then(() => kept) };
  }

  /**
   * The original answer to an activity this actor already had applied, within the idempotency window;
   * the same id with another payload is a 409, not a retry.
   */
  private async replay(hit: Replay, principal: Principal, activityId: string): Promise<ActivityLogEntry | undefined> {
    if (!hit.samePayload) {
      throw new Conflict(
        `Activity id ${activityId} was already applied with a different payload (activity-log entry ${hit.entry}); a new activity needs a new id`,
      );
    }
    return originalEntry(this.deps.store, this.deps.queries, hit.entry, principal.org.id);
  }

  /** Whether a Create's globalId already names an event, document, graph or activity of the node. */
  private async namesNodeResource(graph: ActivityGraph): Promise<boolean> {
    const sent = graph.text(graph.object, 'globalId');
    if (sent === undefined || !isGlobalIdForm(sent)) return false;
    return this.nodeResources.named(canonicalGlobalId(sent));
  }

  private async mayWrite(graph: ActivityGraph, principal: Principal): Promise<boolean> {
    const record = await this.records.byGlobalId(canonicalGlobalId(graph.text(graph.target, 'globalId') ?? ''));
    return record !== undefined && record.owner === principal.org.id && record.identifier === graph.text(graph.target, 'identifier');
  }
}
