import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, newGlobalId, target } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const VALIDATE = '/supply-chain/data-space/validate';
type Json = Record<string, any>;

async function quadCount(node: TestNode): Promise<number> {
  const row = nth(await node.node.store.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }'), 0);
  return Number(row.get('n')!.value);
}

describe('spec fidelity: the same activity sent twice (idempotency by id)', () => {
  // The first node makes (and, on an external store, clears) the data; the restart reuses its dir.
  let dir: string;
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
    dir = node.config.dataDir;
  });
  after(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies an Add once and answers the retry with the original entry, with no second event or signal, also after a restart', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const despatch = {
      ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)),
      id: `urn:uuid:${newGlobalId().slice(9)}`,
    };
    const first = await node.publish('forwarder', despatch);
    expect(first.body.status, first.text).to.equal('completed');
    const before = await quadCount(node);
    const again = await node.publish('forwarder', despatch);
    expect(again.body).to.deep.equal(first.body);
    expect(await quadCount(node)).to.equal(before);
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.events).to.have.length(1);

    await node.stop(false);
    node = await TestNode.start({}, dir);
    const afterRestart = await node.publish('forwarder', despatch);
    expect(afterRestart.body).to.deep.equal(first.body);
    expect(await quadCount(node)).to.equal(before);
  });

  it('keeps ids per actor, and applies activities without an id or with a new id each time', async () => {
    const c = consignment();
    const create = { ...activity('Create', USERS.forwarder.org, c), id: 'urn:example:create-1' };
    expect((await node.publish('forwarder', create)).body.status).to.equal('completed');
    // Another forwarder's activity with the same id is its own.
    const other = { ...activity('Create', USERS.otherForwarder.org, consignment()), id: 'urn:example:create-1' };
    const theirs = await node.publish('otherForwarder', other);
    expect(theirs.body.status).to.equal('completed');
    const add = activity('Add', USERS.forwarder.org, event('svc:carrierBooking'), target(c));
    await node.publish('forwarder', add);
    await node.publish('forwarder', add);
    await node.publish('forwarder', { ...add, id: 'urn:example:add-2' });
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.events).to.have.length(3);
  });

  it('does not remember a failed activity: its retry is a fresh attempt', async () => {
    const c = consignment();
    const update = { ...activity('Update', USERS.forwarder.org, c), id: 'urn:example:update-early' };
    expect((await node.publish('forwarder', update)).body.status).to.equal('failed');
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect((await node.publish('forwarder', update)).body.status).to.equal('completed');
  });

  it('takes an id of 2,048 characters and refuses a longer one with 400 before any work, storing nothing', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const longest = `urn:example:${'é'.repeat(2048 - 'urn:example:'.length)}`;
    const add = { ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)), id: longest };
    const first = await node.publish('forwarder', add);
    expect(first.body.status, first.text).to.equal('completed');
    expect((await node.publish('forwarder', add)).body).to.deep.equal(first.body);

    const before = await quadCount(node);
    const tooLong = await node.publish('forwarder', { ...add, id: `${longest}x` });
    expect(tooLong.status).to.equal(400);
    expect(tooLong.body).to.deep.equal({
      name: 'BadRequest',
      message: 'The activity id is 2049 characters long, more than the limit of 2048',
    });
    expect(await quadCount(node)).to.equal(before);
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.events).to.have.length(1);
  });

  it('answers concurrent copies of one activity once', async () => {
    const c = consignment();
    const create = { ...activity('Create', USERS.forwarder.org, c), id: 'urn:example:race' };
    const answers = await Promise.all([1, 2, 3].map(() => node.publish('forwarder', create)));
    expect(new Set(answers.map((a) => a.body.id)).size).to.equal(1);
    expect(answers.every((a) => a.body.status === 'completed')).to.equal(true);
  });
});

describe('spec fidelity: Update matched by globalId or identifier (spec 4.2)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });
  const create = async (c: Json, user: 'forwarder' | 'otherForwarder' = 'forwarder') =>
    expect((await node.publish(user, activity('Create', USERS[user].org, c))).body.status).to.equal('completed');

  it("matches by identifier when the globalId names nothing, keeps the consignment's globalId and warns", async () => {
    const c = consignment();
    await create(c);
    const sent = 'urn:uuid:00000000-0000-4000-8000-00000000abcd';
    const res = await node.publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, { ...c, globalId: sent, summaryDescription: 'Renamed parts' }),
    );
    expect(res.body.status, res.text).to.equal('completed');
    expect(res.body.warnings[0]).to.include({ path: 'object.globalId', value: sent });
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.identifier))).body;
    expect(view.id).to.equal(c.globalId);
    expect(view.globalId).to.equal(c.globalId);
    expect(view.summaryDescription).to.equal('Renamed parts');
    expect((await node.as('forwarder', 'GET', consignmentPath(sent))).status).to.equal(404);
  });

  it('is a Conflict, changing nothing, when globalId and identifier name two different consignments of the sender', async () => {
    const a = consignment();
    const b = consignment();
    await create(a);
    await create(b);
    const res = await node.publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, { ...a, identifier: b.identifier, summaryDescription: 'x' }),
    );
    expect(res.body.status).to.equal('failed');
    expect(res.body.tasks[0].error.name).to.equal('Conflict');
    expect(res.body.tasks[0].error.message).to.contain(a.globalId).and.contain(b.identifier);
    expect((await node.as('forwarder', 'GET', consignmentPath(a.globalId))).body.summaryDescription).to.equal(a.summaryDescription);
  });

  it("matches identifiers among the sender's own consignments only: another publisher's identifier is NotFound", async () => {
    const theirs = consignment();
    await create(theirs, 'otherForwarder');
    const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...theirs, globalId: newGlobalId() }));
    expect(res.body.tasks[0].error.name).to.equal('NotFound');
    const mine = consignment({ identifier: theirs.identifier });
    await create(mine);
    // Both publishers may use one identifier; a reader gets its own first.
    expect((await node.as('forwarder', 'GET', consignmentPath(theirs.identifier))).body.id).to.equal(mine.globalId);
  });
});

describe('spec fidelity: countryId forms (spec 2.4 leaves the form open)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });
  const item = (countryId: string) => ({
    includedConsignmentItem: [
      {
        type: 'ConsignmentItem',
        goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
        information: 'Gearboxes',
        originCountry: { type: 'Country', countryId },
      },
    ],
  });

  it('accepts a bare PL, stores it as the CountryId IRI, and warns on /validate and in the activity-log entry', async () => {
    const c = consignment(item('PL'));
    const validated = await node.as('forwarder', 'POST', VALIDATE, c);
    expect(validated.body.conforms, validated.text).to.equal(true);
    const warning = validated.body.results.find((r: Json) => r.severity === 'Warning');
    expect(warning).to.include({ path: 'includedConsignmentItem[0].originCountry.countryId', value: 'PL' });
    const turtle = await node.request('POST', VALIDATE, {
      body: c,
      token: await node.login('forwarder'),
      headers: { accept: 'text/turtle' },
    });
    expect(turtle.text).to.contain('sh:Warning').and.contain('"PL"');
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.body.status, res.text).to.equal('completed');
    expect(res.body.warnings).to.deep.include({
      path: 'object.includedConsignmentItem[0].originCountry.countryId',
      value: 'PL',
      message: res.body.warnings[0].message,
    });
    const canonical = consignment(item('unece:CountryId#PL'));
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, canonical));
    const [bare, full] = await Promise.all(
      [c, canonical].map(async (x) => (await node.as('forwarder', 'GET', consignmentPath(x.globalId))).body.includedConsignmentItem),
    );
    expect(bare[0].originCountry.countryId).to.deep.equal(full[0].originCountry.countryId);
    const rows = await node.node.store.select('SELECT ?o WHERE { GRAPH ?g { ?s <https://vocabulary.uncefact.org/countryId> ?o } }');
    expect(new Set(rows.map((r) => `${r.get('o')!.termType} ${r.get('o')!.value}`))).to.deep.equal(
      new Set(['NamedNode https://vocabulary.uncefact.org/CountryId#PL']),
    );
  });

  it('the canonical form gives no warning; a bare code is accepted alike in every code field; an unknown code is refused, quoting the value', async () => {
    const ok = await node.as('forwarder', 'POST', VALIDATE, consignment(item('unece:CountryId#PL')));
    expect(ok.body.results.filter((r: Json) => r.severity === 'Warning')).to.deep.equal([]);
    // Code forms are accepted alike for every code list (issue 35), tradeAddressCountryId included.
    const bareAddress = consignment({
      consignor: { type: 'TradeParty', name: 'A', postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'GB' } },
    });
    const accepted = await node.publish('forwarder', activity('Create', USERS.forwarder.org, bareAddress));
    expect(accepted.body.status, accepted.text).to.equal('completed');
    expect(accepted.body.warnings.map((w: Json) => w.path)).to.deep.equal(['object.consignor.postalAddress.tradeAddressCountryId']);
    const refused = await node.publish(
      'forwarder',
      activity(
        'Create',
        USERS.forwarder.org,
        consignment({ consignor: { type: 'TradeParty', name: 'A', postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'QQ' } } }),
      ),
    );
    expect(refused.status).to.equal(422);
    expect(refused.text).to.contain('QQ');
    const unknown = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment(item('XX'))));
    expect(unknown.status).to.equal(422);
    expect(unknown.text).to.contain('XX');
  });
});
