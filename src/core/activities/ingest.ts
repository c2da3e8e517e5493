import { randomUUID } from 'node:crypto';
import { checkEnvelope, type ActivityType } from './envelope.js';
import { checkJsonShape } from './limits.js';
import { checkRole } from './roles.js';
import { checkItemIdentifiers } from './item-identifiers.js';
import { checkItemGlobalIds } from './item-global-ids.js';
import {
  activityIdOf,
  activityIdOps,
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
import { failure, type HandlerContext, type Step } from './handlers/handler.js';
import { HANDLERS, type HandlerKey } from './handlers/table.js';
import type { Principal } from '../auth/principal.js';
import { logEntryOps } from '../catalog/activity-log.js';
import { acceptedNote } from '../catalog/change-notes.js';
import { entry, task, type ActivityLogEntry } from '../catalog/log-entry.js';
import { ConsignmentIndex } from '../ports/memory-consignment-catalog.js';
import type { ConsignmentCatalog } from '../ports/consignment-catalog.js';
import { startRecordOps } from '../catalog/records.js';
import { FairSlots } from '../util/fair-slots.js';
import { nextTurn } from '../util/next-turn.js';
import { LoopTurns } from './loop-turns.js';
import { Sequence } from '../catalog/sequence.js';
import { activitySystemEventOps } from '../catalog/system-events.js';
import { Conflict, Forbidden, Unprocessable } from '../errors.js';
import { canonicalGlobalId, isGlobalIdForm } from '../catalog/identities.js';
import type { QueryBank } from '../queries/query-bank.js';
import { NodeResources } from './node-resources.js';
import type { Charge } from '../quotas/charge.js';
import { unece } from '../rdf/namespaces.js';
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
 * decide under one lock → one atomic commit (data graph, metadata, log entry, system event), noted
 * as an accepted activity for the change feed's followers (caches, publication order, signals).
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
    // In slices of its own (~25 ms for 150 KB in one piece on a loaded machine), and only for an activity with an id.
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
    const actor = graph.actorDid();
    if (actor !== principal.org.id) {
      throw new Forbidden(
        `The actor's registeredId ${actor === undefined ? '(missing or not typed as a DID)' : actor} is not your organisation ${principal.org.id}`,
      );
    }
    const key = this.handlerKey(envelope.type, graph);
    const activity = `urn:uuid:${randomUUID()}`;
    const started = this.now();
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
        await checkItemGlobalIds(graph, this.records, forms.json);
        // A document whose file could not be fetched is a processing failure like any other: the entry
        // says failed, nothing is stored, and the same activity may be sent again once the file is there.
        const outcome =
          file && !file.ok ? failure('document-store', 'FileNotFetched', file.reason) : await HANDLERS[key](step, this.handlers);
        const t = outcome.ok
          ? task(outcome.appId, started, this.now(), { result: outcome.quads })
          : task(outcome.appId, started, this.now(), { error: outcome.error });
        const logEntry = entry(activity, this.deps.nodeName, step.now, [t]);
        if (outcome.ok && step.warnings.length > 0) logEntry.warnings = step.warnings;
        const ops = outcome.ok
          ? [
              ...outcome.ops,
              ...activitySystemEventOps(
                {
                  ...step,
                  typeCode: envelope.type.toUpperCase(),
                  consignment: outcome.accepted.consignment,
                  object: outcome.systemEvent,
                },
                this.sequence.next(),
              ),
            ]
          : [];
        if (outcome.ok) {
          // Every accepted activity sets the consignment's `updated` to its time (create, update, touch).
          ops.push(...startRecordOps(outcome.accepted.consignment, stamp(step.now), outcome.accepted.activityType === 'Create'));
          for (const contributor of this.deps.contributors ?? []) ops.push(...(await contributor.contribute(outcome.accepted, step)));
        }
        ops.push(
          ...logEntryOps(
            activity,
            principal.org.id,
            logEntry,
            outcome.ok ? outcome.accepted.consignment.consignment : undefined,
            outcome.ok && activityId !== undefined,
          ),
        );
        if (outcome.ok && activityId !== undefined) {
          ops.push(...activityIdOps(activity, activityId, digest));
          await this.processed.claim?.(principal.org.id, activityId, digest, activity, step.now);
        }
        // Charged to the sender: an accepted write by what it adds, a refused one by its log entry's bytes.
        const charged: Charge = outcome.ok
          ? {
              organisation: principal.org.id,
              consignments: outcome.accepted.activityType === 'Create' ? 1 : 0,
              graphs: outcome.accepted.kind === 'consignment' ? 0 : 1,
              consignment: { record: outcome.accepted.consignment.consignment, owner: outcome.accepted.consignment.owner },
            }
          : { organisation: principal.org.id };
        const { durable } = await this.deps.store
          .commit({ ops, notes: outcome.ok ? [acceptedNote(outcome.accepted, activity)] : [], charge: charged })
          .catch((error: unknown) => {
            for (const contributor of this.deps.contributors ?? []) contributor.abandon(activity);
            throw error;
          });
        // At commit, from what the write knows: the read side sees it without reading the store again,
        // the next write's decision at once; a catalog kept apart from the store once the store has it.
        const kept = outcome.ok ? this.records.accepted(outcome.accepted, stamp(step.now), durable) : Promise.resolve();
        kept.catch(() => undefined);
        if (outcome.ok && activityId !== undefined) this.processed.remember(principal.org.id, activityId, digest, activity, step.now);
        return { logEntry, durable: durable.then(() => kept) };
      })
      .finally(() => stateGraph?.staging?.drop());
    // Durable, and every follower of the change feed has it: only now is the activity acknowledged.
    await durable;
    return logEntry;
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

  /** The row of the handler table: Create and Update take a Consignment; an Add, an event or a document. */
  private handlerKey(type: ActivityType, graph: ActivityGraph): HandlerKey {
    const types = graph.objectTypes();
    if (type === 'Add') return types.includes(unece('Document')) ? 'add-document' : 'add-event';
    if (types.length > 0 && !types.includes(unece('Consignment'))) {
      throw new Unprocessable(`The object of a ${type} must be a Consignment`, {
        results: [
          {
            focusNode: 'object',
            path: 'type',
            message: 'must be Consignment',
            severity: 'Violation',
            sourceShape: 'ActivityShape',
            value: types.join(' '),
          },
        ],
      });
    }
    return type === 'Create' ? 'create' : 'update';
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
