import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { ActivityGraph } from '../../../../src/core/activities/activity-graph.js';
import type { HandlerContext, Outcome, Step } from '../../../../src/core/activities/handlers/handler.js';
import { HANDLERS, type HandlerKey } from '../../../../src/core/activities/handlers/table.js';
import { withPositions } from '../../../../src/core/activities/item-order.js';
import { toQuads } from '../../../../src/core/activities/parse.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import { activity, consignment, document, event, target } from '../../../helpers/payloads.js';
import { stamp } from '../../../../src/core/rdf/date-times.js';

const queries = new QueryBank();
const FORWARDER: Principal = { email: 'f@a.example', org: { id: 'did:web:a.example', name: 'A', role: 'freightForwarder', locations: [] } };
const OTHER: Principal = { email: 'o@b.example', org: { id: 'did:web:b.example', name: 'B', role: 'freightForwarder', locations: [] } };

type Json = Record<string, any>;

/** The handler table over a real store, with the records index and sequence an ingest would lend it. */
class Bench {
  readonly store = new OxigraphStore();
  private seq = 0;
  readonly context: HandlerContext = {
    store: this.store,
    queries,
    nodeName: 'test-node',
    records: new ConsignmentIndex(this.store, queries),
    nextSeq: () => ++this.seq,
  };

  /** Runs one activity through its row of the table and commits what it decided, as the ingest does. */
  async run(key: HandlerKey, body: Json, principal = FORWARDER): Promise<Outcome> {
    const graph = new ActivityGraph(await toQuads(withPositions(body)));
    const step: Step = {
      activity: `urn:uuid:${randomUUID()}`,
      objectJson: body.object,
      principal,
      graph,
      now: new Date('2026-11-23T10:00:00Z'),
      warnings: [],
    };
    const outcome = await HANDLERS[key](step, this.context);
    if (outcome.ok) {
      await (
        await this.store.commit({ ops: outcome.ops })
      ).durable;
      await this.context.records.accepted(outcome.accepted, stamp(step.now), Promise.resolve());
    }
    return outcome;
  }

  /** The records as a restarted node reads them back from the metadata graph. */
  async reloaded(): Promise<ConsignmentIndex> {
    const records = new ConsignmentIndex(this.store, queries);
    await records.ready();
    return records;
  }
}

function accepted(outcome: Outcome): Extract<Outcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected an accepted outcome, got ${outcome.error.name}: ${outcome.error.message}`);
  return outcome;
}

describe('ingest handlers (the handler table over a real store)', () => {
  it('has one row per kind of write', () => {
    expect(Object.keys(HANDLERS).sort()).to.deep.equal(['add-document', 'add-event', 'create', 'update']);
  });

  it('create writes a record that a restarted node reads back, and refuses a taken globalId or identifier', async () => {
    const bench = new Bench();
    const c = consignment();
    const created = accepted(await bench.run('create', activity('Create', FORWARDER.org.id, c)));
    expect(created.appId).to.equal('consignment-registry');
    expect(created.accepted).to.include({ kind: 'consignment', activityType: 'Create' });
    expect(created.quads).to.be.greaterThan(10);
    expect(created.systemEvent).to.deep.equal({
      objectId: c.globalId,
      objectType: 'Consignment',
      objectDetail: { identifier: c.identifier },
    });
    const record = await (await bench.reloaded()).byGlobalId(c.globalId);
    expect(record).to.deep.include({
      owner: FORWARDER.org.id,
      identifier: c.identifier,
      status: 'published',
      stateGraph: created.accepted.graph,
    });
    expect(await bench.context.records.maxSeq()).to.equal(1);

    const again = await bench.run('create', activity('Create', FORWARDER.org.id, c));
    expect(again).to.deep.include({ ok: false, appId: 'consignment-registry' });
    expect(again.ok ? undefined : again.error.name).to.equal('Conflict');
    const sameIdentifier = await bench.run('create', activity('Create', FORWARDER.org.id, consignment({ identifier: c.identifier })));
    expect(sameIdentifier.ok ? undefined : sameIdentifier.error.message).to.match(/already has a consignment with identifier/);
  });

  it("update replaces the state graph of the owner's consignment and refuses an unknown or another's one", async () => {
    const bench = new Bench();
    const c = consignment();
    const created = accepted(await bench.run('create', activity('Create', FORWARDER.org.id, c)));
    const updated = accepted(await bench.run('update', activity('Update', FORWARDER.org.id, { ...c, summaryDescription: 'Gearboxes' })));
    expect(updated.accepted).to.include({ activityType: 'Update', graph: created.accepted.graph });
    expect(updated.ops[0]).to.include({ op: 'replaceGraph', graph: created.accepted.graph });
    const replaced = updated.ops[0] as { nquads: string };
    expect(replaced.nquads).to.contain('"Gearboxes"');
    expect(
      replaced.nquads
        .trim()
        .split('\n')
        .every((line) => line.endsWith(`<${created.accepted.graph}> .`)),
    ).to.equal(true);
    expect((await (await bench.reloaded()).byGlobalId(c.globalId))?.identifier).to.equal(c.identifier);

    const unknown = await bench.run('update', activity('Update', FORWARDER.org.id, consignment()));
    expect(unknown.ok).to.equal(false);
    const notOwner = await bench.run('update', activity('Update', OTHER.org.id, c), OTHER);
    expect(notOwner.ok).to.equal(false);
  });

  it("add-event and add-document attach graphs to the owner's consignment and number every write in order", async () => {
    const bench = new Bench();
    const c = consignment();
    accepted(await bench.run('create', activity('Create', FORWARDER.org.id, c)));
    const added = accepted(await bench.run('add-event', activity('Add', FORWARDER.org.id, event('svc:despatched'), target(c))));
    expect(added.appId).to.equal('event-log');
    expect(added.accepted).to.include({ kind: 'event', typeCode: 'svc:despatched' });
    expect(added.systemEvent).to.deep.equal({
      objectId: added.accepted.graph,
      objectType: 'SupplyChainEvent',
      objectDetail: { typeCode: 'svc:despatched' },
    });

    const first = accepted(await bench.run('add-document', activity('Add', FORWARDER.org.id, document('INV-1'), target(c))));
    const second = accepted(
      await bench.run('add-document', activity('Add', FORWARDER.org.id, document('INV-1', { versionId: '2' }), target(c))),
    );
    expect(first.appId).to.equal('document-store');
    expect(first.systemEvent.objectDetail).to.deep.equal({ identifier: 'INV-1', documentRevision: 1 });
    expect(second.systemEvent.objectDetail).to.deep.equal({ identifier: 'INV-1', documentRevision: 2 });
    expect(second.systemEvent.objectId).to.equal(first.systemEvent.objectId);
    const record = (await bench.context.records.byGlobalId(c.globalId))!;
    expect(await bench.context.records.document(record.consignment, 'INV-1')).to.deep.equal({
      document: first.systemEvent.objectId,
      revision: 2,
    });
    expect(await bench.context.records.maxSeq()).to.equal(4);
  });

  it("refuses an Add to a missing consignment, to another's consignment and with a wrong identifier", async () => {
    const bench = new Bench();
    const c = consignment();
    accepted(await bench.run('create', activity('Create', FORWARDER.org.id, c)));
    const cases: [string, Json, Principal, string][] = [
      ['missing', target(consignment()), FORWARDER, 'NotFound'],
      // Answered as a consignment that does not exist: nothing tells the sender it does (issue 33).
      ["another organisation's", target(c), OTHER, 'NotFound'],
      ['wrong identifier', { ...target(c), identifier: 'NOT-IT' }, FORWARDER, 'Conflict'],
    ];
    for (const [name, to, principal, expected] of cases) {
      for (const [key, object] of [
        ['add-event', event('svc:despatched')],
        ['add-document', document('INV-9')],
      ] as const) {
        const outcome = await bench.run(key, activity('Add', principal.org.id, object, to), principal);
        expect(outcome.ok ? 'accepted' : outcome.error.name, `${key} to ${name}`).to.equal(expected);
      }
    }
  });
});
