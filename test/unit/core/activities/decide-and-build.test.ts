import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { ActivityGraph } from '../../../../src/core/activities/activity-graph.js';
import { buildChange, type ChangeContext, type Sent } from '../../../../src/core/activities/build-change.js';
import { checkActor, decide, handlerKey } from '../../../../src/core/activities/decide.js';
import type { WriteContributor } from '../../../../src/core/activities/accepted.js';
import type { HandlerContext, Step } from '../../../../src/core/activities/handlers/handler.js';
import type { HandlerKey } from '../../../../src/core/activities/handlers/table.js';
import { withPositions } from '../../../../src/core/activities/item-order.js';
import { toQuads } from '../../../../src/core/activities/parse.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import type { ChangeOp } from '../../../../src/core/ports/quad-store.js';
import { Forbidden, Unprocessable } from '../../../../src/core/errors.js';
import { logEntryOps } from '../../../../src/core/catalog/activity-log.js';
import { activityIdOps } from '../../../../src/core/activities/idempotency.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { activity, consignment, document, event, target } from '../../../helpers/payloads.js';

const queries = new QueryBank();
const FORWARDER: Principal = { email: 'f@a.example', org: { id: 'did:web:a.example', name: 'A', role: 'freightForwarder', locations: [] } };
const NOW = new Date('2026-12-08T10:00:00Z');
type Json = Record<string, any>;

const graphOf = async (body: Json) => new ActivityGraph(await toQuads(withPositions(body)));

/** A contributor that adds one op of its own and remembers what it was told. */
class Recorder implements WriteContributor {
  readonly told: string[] = [];
  readonly abandoned: string[] = [];
  contribute(): ChangeOp[] {
    this.told.push('contribute');
    return [{ op: 'dropGraph', graph: 'urn:test:contributed' }];
  }
  abandon(activity: string): void {
    this.abandoned.push(activity);
  }
}

describe('ingest: deciding (decide.ts) and building the change (build-change.ts)', () => {
  const store = new OxigraphStore();
  let seq = 0;
  const handlers: HandlerContext = {
    store,
    queries,
    nodeName: 'test-node',
    records: new ConsignmentIndex(store, queries),
    nextSeq: () => ++seq,
  };
  const recorder = new Recorder();
  const context: ChangeContext = { nodeName: 'test-node', now: () => NOW, nextSeq: () => ++seq, contributors: [recorder] };

  const step = (graph: ActivityGraph, body: Json): Step => ({
    activity: `urn:uuid:${randomUUID()}`,
    objectJson: body.object,
    principal: FORWARDER,
    graph,
    now: NOW,
    warnings: [],
  });
  const sent = (type: string, activityId?: string): Sent => ({ type, activityId, digest: activityId ? 'digest' : '', started: NOW });

  it('takes the row of the handler table from the envelope and the object, one row a kind', async () => {
    const c = consignment();
    const rows: [Json, HandlerKey][] = [
      [activity('Create', FORWARDER.org.id, c), 'create'],
      [activity('Update', FORWARDER.org.id, c), 'update'],
      [activity('Add', FORWARDER.org.id, event('svc:despatched'), target(c)), 'add-event'],
      [activity('Add', FORWARDER.org.id, document('INV-1'), target(c)), 'add-document'],
    ];
    for (const [body, key] of rows) expect(handlerKey(body.type, await graphOf(body)), body.type).to.equal(key);
  });

  it('refuses a Create whose object is not a Consignment (422) and an actor not the sender (403)', async () => {
    const c = consignment();
    const notConsignment = activity('Create', FORWARDER.org.id, event('svc:despatched'));
    const graph = await graphOf(notConsignment);
    expect(() => handlerKey('Create', graph)).to.throw(Unprocessable, 'The object of a Create must be a Consignment');
    const others = await graphOf(activity('Create', 'did:web:b.example', c));
    expect(() => checkActor(others, FORWARDER)).to.throw(Forbidden, /is not your organisation did:web:a.example/);
    const own = await graphOf(activity('Create', FORWARDER.org.id, c));
    expect(() => checkActor(own, FORWARDER)).to.not.throw();
  });

  it('builds an accepted Create into one change: data, record, contributors, log entry, id; charged one consignment', async () => {
    const body = { ...activity('Create', FORWARDER.org.id, consignment()), id: 'urn:uuid:sent-1' };
    const s = step(await graphOf(body), body);
    const outcome = await decide('create', s, handlers, body);
    expect(outcome.ok).to.equal(true);
    const { logEntry, change } = await buildChange(outcome, s, sent('Create', 'urn:uuid:sent-1'), context);
    expect(logEntry.id).to.equal(s.activity);
    expect(logEntry.tasks).to.have.length(1);
    expect(logEntry.tasks[0]!.error).to.equal(undefined);
    expect(change.notes).to.have.length(1);
    expect(change.notes![0]).to.include({ kind: 'accepted', entry: s.activity });
    expect(change.charge).to.deep.include({ organisation: FORWARDER.org.id, consignments: 1, graphs: 0 });
    expect(recorder.told).to.deep.equal(['contribute']);
    // The contributor's op comes after the handler's and before the log entry's, which come last with the id's.
    const contributed = change.ops.findIndex((op) => op.op === 'dropGraph' && op.graph === 'urn:test:contributed');
    const record = outcome.ok ? outcome.accepted.consignment.consignment : '';
    const last = [
      ...logEntryOps(s.activity, FORWARDER.org.id, logEntry, record, true),
      ...activityIdOps(s.activity, 'urn:uuid:sent-1', 'digest'),
    ];
    expect(change.ops.slice(-last.length)).to.deep.equal(last);
    expect(contributed)
      .to.be.above(0)
      .and.below(change.ops.length - last.length);
    // The commit it builds is one the store takes.
    await (
      await store.commit(change)
    ).durable;
  });

  it('builds a refused activity into its log entry alone, charged by the entry, no contributor told', async () => {
    recorder.told.length = 0;
    const body = activity('Update', FORWARDER.org.id, consignment());
    const s = step(await graphOf(body), body);
    const outcome = await decide('update', s, handlers, body);
    expect(outcome.ok, 'an Update of a consignment nobody created').to.equal(false);
    const { logEntry, change } = await buildChange(outcome, s, sent('Update', 'urn:uuid:sent-2'), context);
    expect(logEntry.tasks[0]!.error).to.be.an('object');
    expect(change.notes).to.deep.equal([]);
    expect(change.charge).to.deep.equal({ organisation: FORWARDER.org.id });
    expect(recorder.told).to.deep.equal([]);
    // A refused activity's id is not kept: the same id may be sent again once it can apply.
    expect(change.ops.map((op) => ('nquads' in op ? op.nquads : '')).join('')).to.not.include('urn:uuid:sent-2');
  });

  it('decides a document whose file could not be fetched as a failure, before its handler', async () => {
    const c = consignment();
    const body = activity('Add', FORWARDER.org.id, document('INV-9'), target(c));
    const s = {
      ...step(await graphOf(body), body),
      file: { ok: false as const, reason: 'not there', encodingFormat: undefined, fileExtension: undefined },
    };
    const outcome = await decide('add-document', s, handlers, body);
    expect(outcome).to.deep.include({ ok: false, appId: 'document-store' });
    expect(!outcome.ok && outcome.error).to.deep.equal({ name: 'FileNotFetched', message: 'not there' });
  });
});
