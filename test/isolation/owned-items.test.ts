import { expect } from 'chai';
import { activity, consignment, newGlobalId } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';
import { changedLines, sparqlRows, UNECE } from './identity-reads.js';

const LATENCY_BOUND_MS = 1500;
const LOOP_BOUND_MS = 500;
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder'];

type Json = Record<string, any>;

let items = 0;
const item = (globalId: string): Json => ({
  type: 'Consignment',
  globalId,
  identifier: `FORGED-ITEM-${(items += 1)}`,
  summaryDescription: 'Nothing to declare',
});

/** Items are owned like consignments: no item may carry a consignment's globalId, another's or the payload's own. */
describe('isolation: items carry no consignment globalId', function () {
  this.timeout(180_000);
  let node: TestNode;
  let witness: Json;
  let working: Json;
  let older: Json;

  before(async () => {
    node = await TestNode.start();
    expect(
      (await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['GB'] })).status,
    ).to.equal(201);
    older = await publishOwn(node, 'otherForwarder');
    witness = await publishOwn(node, 'forwarder');
    working = await publishOwn(node, 'forwarder');
  });
  after(async () => {
    await node.stop();
  });

  const byGlobalId = (id: string) => `SELECT ?s WHERE { ?s <${UNECE}globalId> "${id}" }`;
  const sparqlOf = async (id: string) => {
    const out: Record<string, string> = {};
    for (const reader of READERS) out[reader] = await sparqlRows(node, reader, byGlobalId(id));
    return out;
  };

  it("refuses an item carrying A's globalId (any case) or the payload's own with 422 naming the path, on Create and Update", async () => {
    const before = { reads: await readsOf(node, witness.globalId, READERS), sparql: await sparqlOf(witness.globalId) };
    const own = consignment();
    const cases: [string, Json, string, string][] = [
      [
        'Create',
        activity('Create', USERS.otherForwarder.org, consignment({ includedConsignment: [item(witness.globalId)] })),
        'object.includedConsignment[0].globalId',
        witness.globalId,
      ],
      [
        // Refused by the shapes already (an item's globalId is urn:uuid: in lower case), so no case can slip past.
        'Create, upper case',
        activity('Create', USERS.otherForwarder.org, consignment({ includedConsignment: [item(witness.globalId.toUpperCase())] })),
        'includedConsignment',
        witness.globalId.toUpperCase(),
      ],
      [
        'Update',
        activity('Update', USERS.otherForwarder.org, { ...older, includedConsignment: [item(newGlobalId()), item(witness.globalId)] }),
        'object.includedConsignment[1].globalId',
        witness.globalId,
      ],
      [
        "Create, the payload's own",
        activity('Create', USERS.otherForwarder.org, { ...own, includedConsignment: [item(own.globalId)] }),
        'object.includedConsignment[0].globalId',
        own.globalId,
      ],
    ];
    const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
      const answers: { status: number; body: Json }[] = [];
      for (const [, payload] of cases) answers.push(await node.publish('otherForwarder', payload));
      return answers;
    });
    run.noisy.forEach(({ status, body }, i) => {
      const [name, , path, value] = cases[i]!;
      expect(status, `${name}: ${JSON.stringify(body)}`).to.equal(422);
      expect(body.name, name).to.be.a('string');
      expect(JSON.stringify(body), `${name}: ${JSON.stringify(body)}`)
        .to.contain(path)
        .and.contain(value);
    });
    expect(run.quiet.failures).to.deep.equal([]);
    expect(p99(run.quiet.latencies)).to.be.below(LATENCY_BOUND_MS);
    expect(run.maxLoopDelayMs).to.be.below(LOOP_BOUND_MS);
    // Nothing was stored: the consignment with A's globalId is A's alone, for every reader.
    expect(
      changedLines(before, { reads: await readsOf(node, witness.globalId, READERS), sparql: await sparqlOf(witness.globalId) }),
    ).to.deep.equal([]);
    expect(
      (await node.as('otherForwarder', 'GET', `/supply-chain/data-space/consignments/${older.globalId}`)).body.includedConsignment ?? [],
    ).to.have.length(0);
  });

  it('takes an item with a globalId of its own that names no consignment', async () => {
    const fresh = newGlobalId();
    const res = await node.publish(
      'otherForwarder',
      activity('Create', USERS.otherForwarder.org, consignment({ includedConsignment: [item(fresh)] })),
    );
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status, res.text).to.equal('completed');
    expect(await sparqlRows(node, 'otherForwarder', byGlobalId(fresh))).to.match(/^200 s=/);
  });
});
