import { randomUUID } from 'node:crypto';
import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { checkEnvelope, type ActivityType } from './envelope.js';
import { checkJsonShape } from './limits.js';
import { checkRole } from './roles.js';
import { activityIdOf, ProcessedActivities, type IdempotencyWindow } from './idempotency.js';
import { InlineReader, type PayloadCheck, type PayloadReader } from './payload-reader.js';
import { ActivityGraph } from './activity-graph.js';
import { ConsignmentRecords, type ConsignmentRecord } from './records.js';
import { entry, task, type ActivityLogEntry, type LogWarning, type TaskError } from './log-entry.js';
import { keepGlobalId, matchUpdate } from './update-match.js';
import { normaliseForms, quoteSentValues } from './payload-forms.js';
import { keepItemPlaces, withPositions } from './item-order.js';
import { routeLocations } from './routing.js';
import { checkOperatorMatchSender, eventEffects, isOperatorMatch, routedThrough } from './event-rules.js';
import type { Principal } from './principal.js';
import { Forbidden, Unprocessable } from '../http/errors.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc, unece, XSD } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { QuadIndex } from '../rdf/quad-index.js';
import { writeGraph } from '../rdf/graph-writer.js';
import { documentLink, eventLink } from './consignment-links.js';
import { iriToString } from '../rdf/terms.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
import { Mutex } from '../util/mutex.js';
import type { DocumentFiles, FileOutcome } from '../documents/document-files.js';

const GLOBAL_ID = /^urn:uuid:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE_TIME = `${XSD}dateTime`;

/** Context a contributor gets about the accepted activity. */
export interface WriteContext {
  activity: string;
  principal: Principal;
  now: Date;
}

/**
 * Adds its own changes (e.g. outbox entries for signals) to the commit of an accepted activity, so
 * they are written in the same atomic, durable step. Runs under the ingest lock.
 */
export interface WriteContributor {
  contribute(accepted: Accepted, context: WriteContext): ChangeOp[] | Promise<ChangeOp[]>;
}

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
  now?: () => Date;
  /** How long and how many activity ids are remembered for idempotency (7 days, 1M by default). */
  idempotencyWindow?: IdempotencyWindow;
}

/** What an accepted write did, for the log entry and for listeners (signals, caches). */
export interface Accepted {
  kind: 'consignment' | 'event' | 'document';
  activityType: ActivityType;
  /** The consignment's record as the commit leaves it. */
  consignment: ConsignmentRecord;
  /** The data graph written. */
  graph: string;
  /** Event typeCode for Add of a SupplyChainEvent. */
  typeCode?: string;
}

export type IngestListener = (accepted: Accepted, entry: ActivityLogEntry) => void;

type Outcome =
  | { ok: true; appId: string; ops: ChangeOp[]; quads: number; accepted: Accepted; systemEvent: SystemEventParts }
  | { ok: false; appId: string; error: TaskError };

interface SystemEventParts {
  objectId: string;
  objectType: string;
  objectDetail: Record<string, unknown>;
}

interface Step {
  activity: string;
  /** The object as sent, for what RDF cannot tell apart (an empty list from an omitted one). */
  objectJson: Record<string, unknown>;
  principal: Principal;
  graph: ActivityGraph;
  now: Date;
  /** The Document's file, fetched before the lock so a slow server never holds up other activities. */
  file?: FileOutcome;
  /** What was accepted but not as sent (spec-silent forms, a globalId kept): told in the log entry. */
  warnings: LogWarning[];
}

const failure = (appId: string, name: string, message: string): Outcome => ({ ok: false, appId, error: { name, message } });

/**
 * The inbox pipeline after authentication: envelope → JSON-LD → shapes → authorise actor →
 * decide under one lock → one atomic commit (data graph, metadata, log entry, system event).
 */
export class Ingest {
  private seq = 0;
  private readonly lock = new Mutex();
  private readonly records: ConsignmentRecords;
  private readonly reader: PayloadReader;
  private readonly listeners: IngestListener[] = [];
  private readonly now: () => Date;
  private readonly processed: ProcessedActivities;

  constructor(private readonly deps: IngestDeps) {
    this.records = new ConsignmentRecords(deps.store, deps.queries);
    this.reader = deps.reader ?? new InlineReader(deps.payloadCheck);
    this.now = deps.now ?? (() => new Date());
    this.processed = new ProcessedActivities(deps.store, deps.queries, deps.idempotencyWindow);
  }

  async init(): Promise<void> {
    await this.records.load();
    this.seq = await this.records.maxSeq();
    await this.processed.load(this.now());
  }

  onAccepted(listener: IngestListener): void {
    this.listeners.push(listener);
  }

  async receive(body: unknown, principal: Principal): Promise<ActivityLogEntry> {
    // Limits before any work: the forms and positions below walk the JSON before a reader sees it.
    checkJsonShape(body);
    const envelope = checkEnvelope(body);
    checkRole(envelope, principal);
    const activityId = activityIdOf(body);
    // A retried activity is answered before any work; the check is repeated under the lock for races.
    const replay = activityId === undefined ? undefined : await this.replay(principal, activityId);
    if (replay) return replay;
    const forms = normaliseForms(body);
    const graph = new ActivityGraph(await this.reader.read(withPositions(forms.json)).catch((error: unknown) => {
      quoteSentValues(error, forms.json);
      throw error;
    }));
    const actor = graph.actorDid();
    if (actor !== principal.org.id) {
      throw new Forbidden(`The actor's registeredId ${actor === undefined ? '(missing or not typed as a DID)' : actor} is not your organisation ${principal.org.id}`);
    }
    const objectKind = this.objectKind(envelope.type, graph);
    const activity = `urn:uuid:${randomUUID()}`;
    const started = this.now();
    // Files are fetched only for a caller who may write the target: anyone else's Add fails under the lock.
    const file = objectKind === 'document' && this.deps.files && this.mayWrite(graph, principal)
      ? await this.deps.files.prepare(graph.text(graph.object, 'uRIId'), principal.org.id) : undefined;

    const { logEntry, durable, accepted } = await this.lock.run(async () => {
      const again = activityId === undefined ? undefined : await this.replay(principal, activityId);
      if (again) return { logEntry: again, durable: Promise.resolve(), accepted: undefined };
      const step: Step = { activity, objectJson: envelope.object, principal, graph, now: this.now(), file, warnings: [...forms.warnings] };
      const outcome = objectKind === 'consignment'
        ? envelope.type === 'Create' ? await this.create(step) : await this.update(step)
        : objectKind === 'event' ? await this.addEvent(step) : await this.addDocument(step);
      const t = outcome.ok ? task(outcome.appId, started, { result: outcome.quads }) : task(outcome.appId, started, { error: outcome.error });
      // The attachment is recorded either way; a file that could not be fetched is told on the task.
      if (outcome.ok && file && !file.ok) t.error = { name: 'FileNotFetched', message: file.reason };
      const logEntry = entry(activity, this.deps.nodeName, step.now, [t]);
      if (outcome.ok && step.warnings.length > 0) logEntry.warnings = step.warnings;
      const ops = outcome.ok ? [...outcome.ops, ...this.systemEventOps(step, envelope.type, outcome)] : [];
      if (outcome.ok) {
        for (const contributor of this.deps.contributors ?? []) ops.push(...await contributor.contribute(outcome.accepted, step));
      }
      ops.push(...this.logEntryOps(step, logEntry, outcome.ok ? outcome.accepted.consignment : undefined));
      if (outcome.ok && activityId !== undefined) ops.push(...this.processed.recordOps(activity, activityId));
      const { durable } = await this.deps.store.commit({ ops });
      if (outcome.ok) this.records.remember(outcome.accepted.consignment);
      if (outcome.ok && activityId !== undefined) this.processed.remember(principal.org.id, activityId, activity, step.now);
      return { logEntry, durable, accepted: outcome.ok ? outcome.accepted : undefined };
    });
    await durable;
    if (accepted) for (const listener of this.listeners) listener(accepted, logEntry);
    return logEntry;
  }

  /** The original answer to an activity this actor already had applied, within the idempotency window. */
  private async replay(principal: Principal, activityId: string): Promise<ActivityLogEntry | undefined> {
    const entryId = this.processed.lookup(principal.org.id, activityId, this.now());
    return entryId === undefined ? undefined : this.processed.entry(entryId, principal.org.id);
  }

  private objectKind(type: ActivityType, graph: ActivityGraph): 'consignment' | 'event' | 'document' {
    const types = graph.objectTypes();
    if (type === 'Add') return types.includes(unece('Document')) ? 'document' : 'event';
    if (types.length > 0 && !types.includes(unece('Consignment'))) {
      throw new Unprocessable(`The object of a ${type} must be a Consignment`, {
        results: [{ focusNode: 'object', path: 'type', message: 'must be Consignment', severity: 'Violation', sourceShape: 'ActivityShape', value: types.join(' ') }],
      });
    }
    return 'consignment';
  }

  private mayWrite(graph: ActivityGraph, principal: Principal): boolean {
    const record = this.records.byGlobalId(graph.text(graph.target, 'globalId') ?? '');
    return record !== undefined && record.owner === principal.org.id && record.identifier === graph.text(graph.target, 'identifier');
  }

  private nextSeq(): number {
    return ++this.seq;
  }

  private required(graph: ActivityGraph, node: Term | undefined, property: string, where: string): string {
    const value = graph.text(node, property);
    if (value === undefined || value.length === 0) {
      throw new Unprocessable(`${where}.${property} is required`, {
        results: [{ focusNode: where, path: property, message: `${property} is required`, severity: 'Violation', sourceShape: `${where}Shape`, value: null }],
      });
    }
    return value;
  }

  private globalId(graph: ActivityGraph, node: Term | undefined, where: string): string {
    const value = this.required(graph, node, 'globalId', where);
    if (!GLOBAL_ID.test(value)) {
      throw new Unprocessable(`${where}.globalId must be urn:uuid:<uuid>`, {
        results: [{ focusNode: where, path: 'globalId', message: 'globalId must be urn:uuid:<uuid>', severity: 'Violation', sourceShape: `${where}Shape`, value }],
      });
    }
    return value;
  }

  private async create(step: Step): Promise<Outcome> {
    const appId = 'consignment-registry';
    const { graph, principal, now } = step;
    const globalId = this.globalId(graph, graph.object, 'object');
    const identifier = this.required(graph, graph.object, 'identifier', 'object');
    if (this.records.byGlobalId(globalId)) return failure(appId, 'Conflict', `A consignment with globalId ${globalId} already exists`);
    if (this.records.byIdentifier(principal.org.id, identifier)) {
      return failure(appId, 'Conflict', `Your organisation already has a consignment with identifier ${identifier}; use Update to change it`);
    }
    const seq = this.nextSeq();
    const record: ConsignmentRecord = {
      consignment: `urn:dataspace:consignment:${randomUUID()}`,
      owner: principal.org.id, globalId, identifier,
      stateGraph: `urn:uuid:${randomUUID()}`,
      created: now.toISOString(),
      status: 'published',
    };
    const quads = graph.objectQuads();
    const meta = new NQuadsBuilder(GRAPHS.metadata)
      .iri(record.consignment, RDF_TYPE, svc('ConsignmentRecord'))
      .literal(record.consignment, svc('globalId'), globalId)
      .literal(record.consignment, svc('identifier'), identifier)
      .iri(record.consignment, svc('owner'), record.owner)
      .literal(record.consignment, svc('created'), record.created, DATE_TIME)
      .literal(record.consignment, svc('updated'), record.created, DATE_TIME)
      .literal(record.consignment, svc('status'), record.status)
      .literal(record.consignment, svc('seq'), seq)
      .iri(record.consignment, svc('stateGraph'), record.stateGraph);
    for (const location of routeLocations(graph.index, graph.object!)) meta.literal(record.consignment, svc('routeLocation'), location);
    this.graphMetadata(meta, step, record.stateGraph, record, 'ConsignmentState', globalId, seq);
    return {
      ok: true, appId, quads: quads.length,
      ops: [
        { op: 'insert', nquads: writeGraph(quads, record.stateGraph, graph.object, globalId, bnodePrefix(step)) },
        { op: 'insert', nquads: meta.toString() },
      ],
      accepted: { kind: 'consignment', activityType: 'Create', consignment: record, graph: record.stateGraph },
      systemEvent: { objectId: globalId, objectType: 'Consignment', objectDetail: { identifier } },
    };
  }

  private async update(step: Step): Promise<Outcome> {
    const appId = 'consignment-registry';
    const { graph, principal, now } = step;
    const sentGlobalId = this.globalId(graph, graph.object, 'object');
    const identifier = this.required(graph, graph.object, 'identifier', 'object');
    const match = matchUpdate(this.records, principal.org.id, sentGlobalId, identifier);
    if (!match.ok) return failure(appId, match.error.name, match.error.message);
    const record = match.record;
    const globalId = record.globalId;
    if (match.warning) step.warnings.push({ path: 'object.globalId', message: match.warning, value: sentGlobalId });
    let quads = keepGlobalId(graph.objectQuads(), graph.object!, globalId);
    // Spec 4.2: an omitted includedConsignment leaves the items as they were; any list replaces them.
    const keepsItems = !('includedConsignment' in step.objectJson);
    if (keepsItems) quads = quads.concat(await this.includedConsignments(record, globalId));
    else quads = keepItemPlaces(quads, graph.object!, await this.stateQuads(record), n3.DataFactory.namedNode(globalId));
    const seq = this.nextSeq();
    const index = new QuadIndex(quads);
    const meta = new NQuadsBuilder(GRAPHS.metadata)
      .literal(record.consignment, svc('identifier'), identifier)
      .literal(record.consignment, svc('updated'), now.toISOString(), DATE_TIME);
    for (const location of routeLocations(index, graph.object!)) meta.literal(record.consignment, svc('routeLocation'), location);
    const c = iriToString(record.consignment);
    return {
      ok: true, appId, quads: quads.length,
      ops: [
        { op: 'dropGraph', graph: record.stateGraph },
        { op: 'insert', nquads: writeGraph(quads, record.stateGraph, graph.object, globalId, bnodePrefix(step)) },
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
      accepted: { kind: 'consignment', activityType: 'Update', consignment: { ...record, identifier }, graph: record.stateGraph },
      systemEvent: { objectId: globalId, objectType: 'Consignment', objectDetail: { identifier } },
    };
  }

  private stateQuads(record: ConsignmentRecord): Promise<Quad[]> {
    return this.deps.store.construct(this.deps.queries.bind('ingest/graph-quads', { graph: iri(record.stateGraph) }));
  }

  /** The stored includedConsignment items of a consignment, to carry into its replacement. */
  private async includedConsignments(record: ConsignmentRecord, globalId: string): Promise<Quad[]> {
    const stored = await this.deps.store.construct(this.deps.queries.bind('ingest/graph-quads', { graph: iri(record.stateGraph) }));
    const index = new QuadIndex(stored);
    const root = stored.find((q) => q.subject.termType === 'NamedNode' && q.subject.value === globalId)?.subject;
    if (!root) return [];
    const links = index.about(root).filter((q) => q.predicate.value === unece('includedConsignment'));
    return [...links, ...index.closure(links.map((q) => q.object))];
  }

  /** The target consignment of an Add, checked against both its globalId and identifier. */
  private async target(step: Step, appId: string, operatorMatch = false): Promise<ConsignmentRecord | Outcome> {
    const { graph } = step;
    const globalId = this.globalId(graph, graph.target, 'target');
    const identifier = this.required(graph, graph.target, 'identifier', 'target');
    const record = this.records.byGlobalId(globalId);
    const missing = failure(appId, 'NotFound', `No consignment with globalId ${globalId} exists`);
    if (!record) return missing;
    // The identifier is told only to those who may read it: owner first, operators after the read check.
    const mismatch = () => failure(appId, 'Conflict', `target.identifier ${identifier} does not match consignment ${globalId} (identifier ${record.identifier})`);
    if (operatorMatch) {
      // Refused like a read when no policy lets this operator read the consignment.
      if (!(await this.deps.canRead?.(step.principal, record.consignment) ?? true)) return missing;
      if (record.identifier !== identifier) return mismatch();
      // Spec 3/6: a location operator confirms consignments routed through its own locations.
      if (await routedThrough(this.deps.store, this.deps.queries, step.principal, record.consignment)) return record;
      return failure(appId, 'Forbidden', `Consignment ${globalId} is not routed through any of your locations`);
    }
    if (record.owner !== step.principal.org.id) {
      return failure(appId, 'Forbidden', `Consignment ${globalId} is owned by another organisation; you may not add to it`);
    }
    if (record.identifier !== identifier) return mismatch();
    return record;
  }

  private async addEvent(step: Step): Promise<Outcome> {
    const appId = 'event-log';
    const typeCode = step.graph.text(step.graph.object, 'typeCode');
    const operatorMatch = isOperatorMatch(typeCode);
    if (operatorMatch) checkOperatorMatchSender(step.principal);
    const record = await this.target(step, appId, operatorMatch);
    if ('ok' in record) return record;
    const { graph, now } = step;
    const eventGraph = `urn:uuid:${randomUUID()}`;
    const seq = this.nextSeq();
    const effects = await eventEffects({
      store: this.deps.store, queries: this.deps.queries, nodeName: this.deps.nodeName,
      graph, record, eventGraph, typeCode, now, bnodePrefix: bnodePrefix(step),
    });
    const quads = effects.quads;
    const meta = new NQuadsBuilder(GRAPHS.metadata);
    this.graphMetadata(meta, step, eventGraph, record, 'Event', eventGraph, seq);
    if (typeCode) meta.literal(eventGraph, svc('typeCode'), typeCode);
    return {
      ok: true, appId, quads: quads.length,
      ops: [
        { op: 'insert', nquads: writeGraph(quads, eventGraph, graph.object, eventGraph, bnodePrefix(step)) + eventLink(record.globalId, eventGraph) },
        ...effects.ops,
        ...this.touch(record, now),
        { op: 'insert', nquads: meta.toString() },
      ],
      accepted: { kind: 'event', activityType: 'Add', consignment: { ...record, status: effects.status }, graph: eventGraph, typeCode },
      systemEvent: { objectId: eventGraph, objectType: 'SupplyChainEvent', objectDetail: typeCode ? { typeCode } : {} },
    };
  }

  private async addDocument(step: Step): Promise<Outcome> {
    const appId = 'document-store';
    const record = await this.target(step, appId);
    if ('ok' in record) return record;
    const { graph, now, principal } = step;
    const identifier = this.required(graph, graph.object, 'identifier', 'object');
    const existing = await this.records.document(record.consignment, identifier);
    const revisionGraph = `urn:uuid:${randomUUID()}`;
    const document = existing?.document ?? `urn:uuid:${randomUUID()}`;
    const revision = (existing?.revision ?? 0) + 1;
    const seq = this.nextSeq();
    const quads = graph.objectQuads();
    const meta = new NQuadsBuilder(GRAPHS.metadata);
    this.graphMetadata(meta, step, revisionGraph, record, 'DocumentRevision', revisionGraph, seq);
    meta.iri(revisionGraph, svc('revisionOf'), document).literal(revisionGraph, svc('revision'), revision);
    if (!existing) {
      meta.iri(document, RDF_TYPE, svc('DocumentRecord'))
        .iri(document, svc('consignment'), record.consignment)
        .literal(document, svc('documentIdentifier'), identifier)
        .iri(document, svc('publisher'), principal.org.id)
        .literal(document, svc('seq'), seq);
    }
    meta.iri(document, svc('currentRevision'), revisionGraph);
    if (step.file) fileMetadata(meta, revisionGraph, step.file);
    return {
      ok: true, appId, quads: quads.length,
      ops: [
        { op: 'insert', nquads: writeGraph(quads, revisionGraph, graph.object, revisionGraph, bnodePrefix(step)) + documentLink(record.globalId, revisionGraph) },
        ...this.touch(record, now),
        { op: 'deleteMatching', subject: iriToString(document), predicate: iriToString(svc('currentRevision')), object: null, graph: GRAPHS.metadata },
        { op: 'insert', nquads: meta.toString() },
      ],
      accepted: { kind: 'document', activityType: 'Add', consignment: record, graph: revisionGraph },
      systemEvent: { objectId: document, objectType: 'Document', objectDetail: { identifier, documentRevision: revision } },
    };
  }

  private graphMetadata(meta: NQuadsBuilder, step: Step, graph: string, record: ConsignmentRecord, kind: string, root: string, seq: number): void {
    meta.iri(graph, svc('consignment'), record.consignment)
      .iri(graph, svc('kind'), svc(kind))
      .iri(graph, svc('publisher'), step.principal.org.id)
      .literal(graph, svc('published'), step.now.toISOString(), DATE_TIME)
      .literal(graph, svc('seq'), seq)
      .iri(graph, svc('root'), root)
      .iri(graph, svc('activity'), step.activity);
  }

  private touch(record: ConsignmentRecord, now: Date): ChangeOp[] {
    return [
      { op: 'deleteMatching', subject: iriToString(record.consignment), predicate: iriToString(svc('updated')), object: null, graph: GRAPHS.metadata },
      { op: 'insert', nquads: new NQuadsBuilder(GRAPHS.metadata).literal(record.consignment, svc('updated'), now.toISOString(), DATE_TIME).toString() },
    ];
  }

  private systemEventOps(step: Step, type: ActivityType, outcome: Extract<Outcome, { ok: true }>): ChangeOp[] {
    const id = `urn:uuid:${randomUUID()}`;
    const { consignment } = outcome.accepted;
    const json = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'SystemEvent',
      typeCode: type.toUpperCase(),
      source: { id: step.principal.org.id, type: 'TradeParty', detail: { name: step.principal.org.name, role: step.principal.org.role } },
      object: { id: outcome.systemEvent.objectId, type: outcome.systemEvent.objectType, detail: outcome.systemEvent.objectDetail },
      target: { id: consignment.globalId, type: 'Consignment', detail: { identifier: consignment.identifier, activity: step.activity } },
      date: step.now.toISOString(),
    };
    return [{ op: 'insert', nquads: systemEventQuads(id, consignment.consignment, step.principal.org.id, json, this.nextSeq()) }];
  }

  private logEntryOps(step: Step, logEntry: ActivityLogEntry, record: ConsignmentRecord | undefined): ChangeOp[] {
    const b = new NQuadsBuilder(GRAPHS.activityLog)
      .iri(step.activity, RDF_TYPE, svc('ActivityLogEntry'))
      .iri(step.activity, svc('actor'), step.principal.org.id)
      .literal(step.activity, svc('entry'), JSON.stringify(logEntry))
      .literal(step.activity, svc('status'), logEntry.status)
      .literal(step.activity, svc('dateCreated'), logEntry.dateCreated, DATE_TIME);
    if (record) b.iri(step.activity, svc('consignment'), record.consignment);
    return [{ op: 'insert', nquads: b.toString() }];
  }

  /** Hands out the next sequence number to records written outside the inbox (signals' system events). */
  allocateSeq(): number {
    return this.nextSeq();
  }
}

export function systemEventQuads(id: string, consignment: string, publisher: string, json: unknown, seq: number): string {
  return new NQuadsBuilder(GRAPHS.activityLog)
    .iri(id, RDF_TYPE, svc('SystemEvent'))
    .iri(id, svc('systemEventOf'), consignment)
    .iri(id, svc('publisher'), publisher)
    .literal(id, svc('json'), JSON.stringify(json))
    .literal(id, svc('seq'), seq)
    .toString();
}

/** DocumentAttachment metadata of a revision's file, in the metadata graph. */
function fileMetadata(meta: NQuadsBuilder, revisionGraph: string, file: FileOutcome): void {
  if (file.encodingFormat) meta.literal(revisionGraph, svc('encodingFormat'), file.encodingFormat);
  if (file.fileExtension) meta.literal(revisionGraph, svc('fileExtension'), file.fileExtension);
  if (file.ok) meta.literal(revisionGraph, svc('blobSha256'), file.sha256).literal(revisionGraph, svc('blobSize'), file.size);
  else meta.literal(revisionGraph, svc('fileError'), file.reason);
}

function bnodePrefix(step: Step): string {
  return `a${step.activity.slice(-36).replace(/-/g, '')}`;
}
