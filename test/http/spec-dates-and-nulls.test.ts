import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const VALIDATE = '/supply-chain/data-space/validate';
type Json = Record<string, any>;

async function quadCount(node: TestNode): Promise<number> {
  const row = nth(await node.node.store.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }'), 0);
  return Number(row.get('n')!.value);
}

describe('spec fidelity: date-times are calendar dates, stored in one form (issue 35)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const created = async (): Promise<Json> => {
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    return c;
  };
  const addEvent = (c: Json, when: string) =>
    node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched', { occurrenceDateTime: when }), target(c)));
  const addDocument = (c: Json, when: string) =>
    node.publish('forwarder', activity('Add', USERS.forwarder.org, document(`D-${when}`, { issueDateTime: when }), target(c)));
  const createPublished = (when: string) =>
    node.publish('forwarder', { ...activity('Create', USERS.forwarder.org, consignment()), published: when });

  const impossible = [
    '2026-02-30T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2027-02-29T10:00:00Z',
    '1900-02-29T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-05-01T25:00:00Z',
  ];
  for (const when of impossible) {
    it(`refuses ${when} in occurrenceDateTime, issueDateTime and published with 422 naming the field, storing nothing`, async () => {
      const c = await created();
      const before = await quadCount(node);
      for (const [field, res] of [
        ['occurrenceDateTime', await addEvent(c, when)],
        ['issueDateTime', await addDocument(c, when)],
        ['published', await createPublished(when)],
      ] as const) {
        expect(res.status, `${field} ${res.text}`).to.equal(422);
        expect(res.body.name).to.equal('GeneralError');
        const result = res.body.properties.results.find((r: any) => r.path === field);
        expect(result, `${field}: ${res.text}`).to.not.equal(undefined);
        expect(result.value).to.equal(when);
      }
      expect(await quadCount(node)).to.equal(before);
    });
  }

  it('refuses a date-time without an offset: the instant it means is unknown', async () => {
    const c = await created();
    const res = await addEvent(c, '2026-05-01T10:00:00');
    expect(res.status).to.equal(422);
    expect(res.body.properties.results.map((r: any) => r.path)).to.include('occurrenceDateTime');
    const report = await node.as('forwarder', 'POST', VALIDATE, document('X-1', { issueDateTime: '2026-05-01T10:00' }));
    expect(report.body.conforms).to.equal(false);
    expect(report.body.results.map((r: any) => r.path)).to.include('issueDateTime');
  });

  it('accepts leap days of leap years (2028, 2000) and stores every date-time in one canonical form', async () => {
    const c = await created();
    const forms: [string, string][] = [
      ['2028-02-29T10:00:00Z', '2028-02-29T10:00:00Z'],
      ['2000-02-29T10:00:00Z', '2000-02-29T10:00:00Z'],
      ['2026-05-01T10:00:00+0530', '2026-05-01T10:00:00+05:30'],
      ['2026-05-01T10:00+02:00', '2026-05-01T10:00:00+02:00'],
      ['2026-05-01T10:00:00+00:00', '2026-05-01T10:00:00Z'],
      ['2026-05-01T10:00:00-0000', '2026-05-01T10:00:00Z'],
      ['2026-05-01T10:00:00.500-03:00', '2026-05-01T10:00:00.5-03:00'],
      ['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00Z'],
    ];
    for (const [sent] of forms) expect((await addEvent(c, sent)).body.status, sent).to.equal('completed');
    const doc = await addDocument(c, '2026-05-02T08:15+0100');
    expect(doc.body.status, doc.text).to.equal('completed');
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.events.map((e: any) => e.occurrenceDateTime)).to.deep.equal(forms.map(([, stored]) => stored));
    expect(view.documents[0].document.issueDateTime).to.equal('2026-05-02T08:15:00+01:00');
    // A SPARQL user finds the stored form, not the one sent.
    const row = nth(
      await node.node.store.select(
        'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?e <https://vocabulary.uncefact.org/occurrenceDateTime> "2026-05-01T10:00:00+05:30" } }',
      ),
      0,
    );
    expect(Number(row.get('n')!.value)).to.equal(1);
  });

  it('checks every D23B date-time field the same way, nested ones included', async () => {
    const bad = consignment({
      atDepartureTransportMovement: {
        type: 'TransportMovement',
        departureEvent: [{ scheduledOccurrenceDateTime: '2026-02-30T19:00:00Z' }],
      },
    });
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, bad));
    expect(res.status).to.equal(422);
    expect(res.body.properties.results.map((r: any) => r.path)).to.include(
      'atDepartureTransportMovement.departureEvent.scheduledOccurrenceDateTime',
    );
    const good = consignment({
      atDepartureTransportMovement: {
        type: 'TransportMovement',
        departureEvent: [{ scheduledOccurrenceDateTime: '2026-05-08T19:00+0000' }],
      },
    });
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, good))).body.status).to.equal('completed');
    const view = (await node.as('forwarder', 'GET', consignmentPath(good.globalId))).body;
    expect(view.atDepartureTransportMovement.departureEvent[0].scheduledOccurrenceDateTime).to.equal('2026-05-08T19:00:00Z');
  });
});

describe('spec fidelity: JSON null is absent, as in JSON-LD (issue 35)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const items = [
    { type: 'Consignment', identifier: 'ITEM-1', summaryDescription: 'first' },
    { type: 'Consignment', identifier: 'ITEM-2', summaryDescription: 'second' },
  ];
  const view = async (c: Json) => (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;

  it('leaves the items untouched on an Update with "includedConsignment": null, and removes them with []', async () => {
    const c = consignment({ includedConsignment: items });
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const withNull = await node.publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, { ...c, includedConsignment: null, summaryDescription: 'renamed' }),
    );
    expect(withNull.body.status, withNull.text).to.equal('completed');
    let v = await view(c);
    expect(v.summaryDescription).to.equal('renamed');
    expect(v.includedConsignments.map((i: any) => i.identifier)).to.deep.equal(['ITEM-1', 'ITEM-2']);
    // A null item of a list is no item either.
    await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, includedConsignment: [items[1], null] }));
    v = await view(c);
    expect(v.includedConsignments.map((i: any) => i.identifier)).to.deep.equal(['ITEM-2']);
    await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, includedConsignment: [] }));
    expect((await view(c)).includedConsignments).to.deep.equal([]);
  });

  it('treats any other null field, and a null value object, as not sent', async () => {
    const c = consignment({
      carrierAssignedId: null,
      summaryDescription: { '@value': null },
      consignor: { type: 'TradeParty', name: 'Acme', postalAddress: null },
    });
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.equal('completed');
    const v = await view(c);
    expect(v).to.not.have.any.keys('carrierAssignedId', 'summaryDescription');
    expect(v.consignor).to.deep.equal({ type: 'TradeParty', name: 'Acme' });
    expect((await node.as('forwarder', 'POST', VALIDATE, { ...c, carrierParty: null })).body.conforms).to.equal(true);
  });

  it('treats null as not sent on the plain-JSON routes too: policies and notification endpoints', async () => {
    const policy = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', {
      role: 'borderAgency',
      countries: ['GB'],
      locations: null,
      consignments: null,
    });
    expect(policy.status, policy.text).to.equal(201);
    const endpoint = await node.as('port', 'PUT', '/supply-chain/data-space/notification-endpoint', {
      url: 'https://hooks.port.example/signals',
      secret: null,
    });
    expect(endpoint.status, endpoint.text).to.equal(200);
    expect(endpoint.body).to.include({ url: 'https://hooks.port.example/signals' });
    const noUrl = await node.as('port', 'PUT', '/supply-chain/data-space/notification-endpoint', { url: null });
    expect(noUrl.status).to.equal(400);
  });

  it('answers a null required field like a missing one: 400', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const noTarget = await node.publish('forwarder', { ...activity('Add', USERS.forwarder.org, event('svc:despatched')), target: null });
    expect(noTarget.status).to.equal(400);
    const nullGlobalId = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, event('svc:despatched'), { ...target(c), globalId: null }),
    );
    expect(nullGlobalId.body).to.deep.equal({ name: 'BadRequest', message: 'The target has no globalId' });
    const nullIdentifier = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: null })));
    expect(nullIdentifier.status).to.equal(400);
    expect(nullIdentifier.body.name).to.equal('BadRequest');
    expect(nullIdentifier.body.properties.results.map((r: any) => r.path)).to.include('identifier');
  });
});
