import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const VALIDATE = '/supply-chain/data-space/validate';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

describe('SHACL validation in the inbox and at /validate', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('refuses a payload that breaks its shapes with 422, every violation listed readably, and stores nothing', async () => {
    const c = consignment({
      consignor: { type: 'TradeParty', name: 'Acme', postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#XX' } },
      loadingBaseportLocation: { type: 'LogisticsLocation', name: 'Nowhere', UNLocode: 'TOOLONG' },
    });
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.status).to.equal(422);
    expect(res.body.name).to.equal('GeneralError');
    const results: any[] = res.body.properties.results;
    for (const r of results) expect(r).to.have.keys('focusNode', 'path', 'message', 'severity', 'sourceShape', 'value');
    const paths = results.map((r) => r.path);
    expect(paths).to.include('consignor.postalAddress.tradeAddressCountryId');
    expect(paths).to.include('loadingBaseportLocation.UNLocode');
    expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).status).to.equal(404);
  });

  it('refuses values where objects belong', async () => {
    const c = consignment({ consignor: 5 });
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.status).to.equal(422);
    expect(res.body.properties.results.map((r: any) => r.path)).to.include('consignor');
  });

  it('refuses a bad globalId (422), a document without its required fields and an event without typeCode (400)', async () => {
    const bad = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ globalId: 'not-a-uuid' })));
    expect(bad.status).to.equal(422);
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const { versionId: _v, ...noVersion } = document('INV-9');
    // Spec 7.1: a missing required field is 400 (BadRequest), with the same report as a 422.
    const doc = await node.publish('forwarder', activity('Add', USERS.forwarder.org, noVersion, target(c)));
    expect(doc.status).to.equal(400);
    expect(doc.body.name).to.equal('BadRequest');
    expect(doc.body.properties.results.map((r: any) => r.path)).to.include('versionId');
    const { typeCode: _t, ...noCode } = event('svc:despatched');
    const ev = await node.publish('forwarder', activity('Add', USERS.forwarder.org, noCode, target(c)));
    expect(ev.status).to.equal(400);
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.documents).to.deep.equal([]);
    expect(view.events).to.deep.equal([]);
  });

  it('answers /validate with {conforms, results} for activities and bare objects, storing nothing', async () => {
    const good = consignment();
    const ok = await node.as('forwarder', 'POST', VALIDATE, activity('Create', USERS.forwarder.org, good));
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({ conforms: true, results: [] });
    const bare = await node.as('forwarder', 'POST', VALIDATE, document('X-1', { issueDateTime: 'yesterday' }));
    expect(bare.status).to.equal(200);
    expect(bare.body.conforms).to.equal(false);
    expect(bare.body.results.map((r: any) => r.path)).to.include('issueDateTime');
    const dropped = await node.as('forwarder', 'POST', VALIDATE, consignment({ notATerm: 1 }));
    expect(dropped.body.conforms).to.equal(false);
    expect(dropped.body.results.map((r: any) => r.path)).to.include('notATerm');
    expect((await node.as('forwarder', 'GET', consignmentPath(good.globalId))).status).to.equal(404);
  });

  it('answers the sh:ValidationReport itself as Turtle or JSON-LD', async () => {
    const payload = consignment({ globalId: 'nope' });
    const token = await node.login('forwarder');
    const ttl = await node.request('POST', VALIDATE, { body: payload, token, headers: { accept: 'text/turtle' } });
    expect(ttl.status).to.equal(200);
    expect(ttl.headers.get('content-type')).to.contain('text/turtle');
    expect(ttl.text).to.contain('sh:ValidationReport');
    expect(ttl.text).to.match(/sh:conforms\s+false/);
    const ld = await node.request('POST', VALIDATE, { body: payload, token, headers: { accept: 'application/ld+json' } });
    expect(ld.headers.get('content-type')).to.contain('application/ld+json');
    expect(ld.text).to.contain('ValidationReport');
  });

  it('needs credentials and a JSON object', async () => {
    expect((await node.request('POST', VALIDATE, { body: consignment() })).status).to.equal(401);
    expect((await node.as('forwarder', 'POST', VALIDATE, [1, 2])).status).to.equal(400);
  });
});
