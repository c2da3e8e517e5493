import { expect } from 'chai';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';
import { changedLines, sparqlAbout, sparqlRows, UNECE } from './identity-reads.js';

const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const READERS: UserName[] = ['forwarder', 'border', 'port', 'otherForwarder'];
const MATCH = 'svc:locationOperatorMatch';

type Json = Record<string, any>;

/** One way a payload could describe another's resource: who sends it, the activity, and the JSON path the refusal names. */
interface Forgery {
  name: string;
  user: UserName;
  path: string;
  make(victim: string): Json;
}

describe("isolation: nodes inside a payload are the publisher's own", function () {
  this.timeout(180_000);
  let node: TestNode;
  let witness: Json;
  let working: Json;
  let older: Json;
  let eventId: string;

  const forged = (id: string, key = '@id') => ({
    [key]: id,
    type: 'Consignment',
    identifier: 'FORGED',
    summaryDescription: 'Nothing to declare',
  });
  const forgeries = (): Forgery[] => {
    const match = (extra: Json) => activity('Add', USERS.port.org, event(MATCH, extra), target(working));
    const own = (extra: Json) => activity('Add', USERS.otherForwarder.org, event('svc:despatched', extra), target(older));
    return [
      {
        name: "an operator's match event nesting A's consignment",
        user: 'port',
        path: 'object.associatedReference.@id',
        make: (v) => match({ associatedReference: forged(v) }),
      },
      {
        name: 'the same through the `id` alias',
        user: 'port',
        path: 'object.associatedReference.id',
        make: (v) => match({ associatedReference: forged(v, 'id') }),
      },
      {
        name: 'an item of a Create',
        user: 'otherForwarder',
        path: 'object.includedConsignment[0].@id',
        make: (v) => activity('Create', USERS.otherForwarder.org, consignment({ includedConsignment: [forged(v)] })),
      },
      {
        name: 'a party of an Update',
        user: 'otherForwarder',
        path: 'object.consignor.id',
        make: (v) =>
          activity('Update', USERS.otherForwarder.org, { ...older, consignor: { id: v, type: 'TradeParty', name: 'Forged Ltd' } }),
      },
      {
        name: "a document's uRIId given properties",
        user: 'otherForwarder',
        path: 'object.uRIId.@id',
        make: (v) => activity('Add', USERS.otherForwarder.org, document('DOC-F', { uRIId: { '@id': v, name: 'forged' } }), target(older)),
      },
      {
        name: '@reverse reached from the object',
        user: 'otherForwarder',
        path: 'object.',
        make: (v) => own({ associatedReference: { '@id': v }, '@reverse': { [`${UNECE}associatedReference`]: { '@id': v } } }),
      },
      {
        name: '@included reached from the object',
        user: 'otherForwarder',
        path: 'object.',
        make: (v) => own({ associatedReference: { '@id': v }, '@included': [{ '@id': v, [`${UNECE}summaryDescription`]: 'forged' }] }),
      },
    ];
  };

  before(async () => {
    node = await TestNode.start();
    const share = async (user: UserName, policy: Json) =>
      expect((await node.as(user, 'POST', '/supply-chain/data-space/policies', policy)).status).to.equal(201);
    await share('forwarder', { role: 'borderAgency', countries: ['GB'] });
    await share('forwarder', { role: 'locationOperator', locations: ['GBFXT'] });
    older = await publishOwn(node, 'otherForwarder');
    witness = await publishOwn(node, 'forwarder');
    working = await publishOwn(node, 'forwarder');
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(witness)))).body.status,
    ).to.equal('completed');
    eventId = (await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${witness.globalId}`)).body.events[0].id;
  });
  after(async () => {
    await node.stop();
  });

  for (const victim of ['consignment', 'event', 'future'] as const) {
    it(`refuses every way of describing ${victim === 'future' ? 'a globalId not yet published' : `A's ${victim}`} with 422 naming the path, on every activity type`, async () => {
      const id = victim === 'consignment' ? witness.globalId : victim === 'event' ? eventId : newGlobalId();
      const before = { reads: await readsOf(node, witness.globalId, READERS), about: await sparqlAbout(node, id, READERS) };
      const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
        const answers: { forgery: Forgery; status: number; body: Json }[] = [];
        for (const forgery of forgeries()) {
          const res = await node.publish(forgery.user, forgery.make(id));
          answers.push({ forgery, status: res.status, body: res.body });
        }
        return answers;
      });
      for (const { forgery, status, body } of run.noisy) {
        expect(status, `${forgery.name}: ${JSON.stringify(body)}`).to.equal(422);
        expect(body.message, forgery.name).to.contain(forgery.path).and.contain(id);
      }
      expect(run.quiet.failures).to.deep.equal([]);
      expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
      expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
      expect(
        changedLines(before, { reads: await readsOf(node, witness.globalId, READERS), about: await sparqlAbout(node, id, READERS) }),
      ).to.deep.equal([]);
      // Nothing of B's or the operator's was stored either way.
      for (const reader of READERS)
        expect(await sparqlRows(node, reader, `SELECT ?s WHERE { ?s <${UNECE}identifier> "FORGED" }`)).to.equal('200 ');
    });
  }

  it("names A's resources only as values: a reference is accepted, and the object's own @id is replaced by the node's name", async () => {
    const before = { reads: await readsOf(node, witness.globalId, READERS), about: await sparqlAbout(node, witness.globalId, READERS) };
    const reference = await node.publish(
      'port',
      activity('Add', USERS.port.org, event(MATCH, { associatedReference: { '@id': witness.globalId } }), target(working)),
    );
    expect(reference.body.status, reference.text).to.equal('completed');
    const c = consignment({ '@id': witness.globalId });
    const renamed = await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, c));
    expect(renamed.body.status, renamed.text).to.equal('completed');
    const rows = await sparqlRows(node, 'otherForwarder', `SELECT ?s WHERE { ?s <${UNECE}globalId> "${c.globalId}" }`);
    expect(rows).to.equal(`200 s=${c.globalId}`);
    expect(
      changedLines(before, {
        reads: await readsOf(node, witness.globalId, READERS),
        about: await sparqlAbout(node, witness.globalId, READERS),
      }),
    ).to.deep.equal([]);
  });

  it("says the same at /validate, for a bare object and for an activity, and passes the object's own @id", async () => {
    const bare = consignment({ '@id': newGlobalId(), includedConsignment: [forged(witness.globalId)] });
    const wrapped = activity('Create', USERS.otherForwarder.org, bare);
    for (const [payload, path] of [
      [bare, 'includedConsignment[0].@id'],
      [wrapped, 'object.includedConsignment[0].@id'],
    ] as const) {
      const res = await node.as('otherForwarder', 'POST', '/supply-chain/data-space/validate', payload);
      expect(res.status).to.equal(200);
      expect(res.body.conforms).to.equal(false);
      expect(res.body.results.map((r: Json) => [r.focusNode, r.value, r.sourceShape])).to.deep.equal([
        [path, witness.globalId, 'OwnedNodes'],
      ]);
    }
    delete bare.includedConsignment;
    expect((await node.as('otherForwarder', 'POST', '/supply-chain/data-space/validate', bare)).body.conforms).to.equal(true);
  });

  it('keeps refusing @graph inside an object, whatever it names', async () => {
    const res = await node.publish(
      'port',
      activity('Add', USERS.port.org, event(MATCH, { '@graph': [forged(witness.globalId)] }), target(working)),
    );
    expect(res.status).to.equal(422);
  });
});
