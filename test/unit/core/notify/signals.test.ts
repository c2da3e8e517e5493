import { expect } from 'chai';
import type { Accepted } from '../../../../src/core/activities/accepted.js';
import type { Organisation } from '../../../../src/core/registry/registry.js';
import { receiversOf, signalPayload, triggerOf } from '../../../../src/core/notify/signals.js';

const record = {
  consignment: 'urn:dataspace:consignment:1',
  owner: 'did:web:f.example',
  globalId: 'urn:uuid:6f1c1f5e-5a8e-4a49-9f57-0d6b8ee1c001',
  identifier: 'REF 1/2',
  stateGraph: 'urn:uuid:x',
  created: '',
  status: 'published',
  seq: 1,
};
const accepted = (kind: Accepted['kind'], activityType: Accepted['activityType'], typeCode?: string): Accepted => ({
  kind,
  activityType,
  consignment: record,
  graph: 'urn:uuid:g',
  typeCode,
});

describe('signals', () => {
  const triggers: [string, Accepted, string | undefined][] = [
    ['Create', accepted('consignment', 'Create'), 'PreNotification/borderAgencies'],
    ['Update', accepted('consignment', 'Update'), 'PreNotification/borderAgencies'],
    ['Add svc:despatched', accepted('event', 'Add', 'svc:despatched'), 'Despatch/borderAgencies'],
    ['Add svc:carrierBooking', accepted('event', 'Add', 'svc:carrierBooking'), 'CarrierBookingNotification/routeOperators'],
    [
      'Add svc:carrierBooking as an IRI',
      accepted('event', 'Add', 'https://w3id.org/supply-chain-dataspace/ns#carrierBooking'),
      'CarrierBookingNotification/routeOperators',
    ],
    ['Add svc:preNotification', accepted('event', 'Add', 'svc:preNotification'), undefined],
    ['Add svc:locationOperatorMatch', accepted('event', 'Add', 'svc:locationOperatorMatch'), undefined],
    ['Add an event without typeCode', accepted('event', 'Add'), undefined],
    ['Add a document', accepted('document', 'Add'), undefined],
  ];
  for (const [name, input, expected] of triggers) {
    it(`${name} → ${expected ?? 'no signal'}`, () => {
      const t = triggerOf(input);
      expect(t && `${t.type}/${t.audience}`).to.equal(expected);
    });
  }

  const org = (id: string, role: Organisation['role'], locations: string[] = []): Organisation => ({
    id,
    name: id,
    role,
    locations,
    notificationUrl: 'http://127.0.0.1:1/',
  });
  const orgs = [
    org('did:web:ba1', 'borderAgency'),
    org('did:web:ba2', 'borderAgency'),
    org('did:web:ff', 'freightForwarder'),
    org('did:web:lo-fxt', 'locationOperator', ['GBFXT']),
    org('did:web:lo-rtm', 'locationOperator', ['NLRTM', 'NLAMS']),
    org('did:web:lo-anr', 'locationOperator', ['BEANR']),
  ];
  const all = () => true;
  const receivers: [string, Parameters<typeof receiversOf>, string[]][] = [
    ['border agencies', ['borderAgencies', orgs, [], all], ['did:web:ba1', 'did:web:ba2']],
    ['border agencies with an endpoint', ['borderAgencies', orgs, [], (id) => id !== 'did:web:ba2'], ['did:web:ba1']],
    ['operators on the route', ['routeOperators', orgs, ['GBFXT', 'NLRTM'], all], ['did:web:lo-fxt', 'did:web:lo-rtm']],
    ['an operator with one of several locations on the route', ['routeOperators', orgs, ['NLAMS'], all], ['did:web:lo-rtm']],
    ['no operator off the route', ['routeOperators', orgs, ['DEHAM'], all], []],
    ['no operator without a route', ['routeOperators', orgs, [], all], []],
  ];
  for (const [name, args, expected] of receivers) {
    it(`receivers: ${name}`, () => {
      expect(receiversOf(...args).map((o) => o.id)).to.deep.equal(expected);
    });
  }

  it('builds the payload: originRecordID for border agencies only, href with the globalId escaped', () => {
    const facts = {
      id: 'urn:uuid:s',
      published: new Date('2026-11-20T10:00:00Z'),
      globalId: record.globalId,
      identifier: record.identifier,
      baseUrl: 'https://node.example',
    };
    expect(signalPayload({ ...facts, trigger: { type: 'PreNotification', audience: 'borderAgencies' } })).to.deep.equal({
      id: 'urn:uuid:s',
      type: 'PreNotification',
      published: '2026-11-20T10:00:00Z',
      consignment: {
        globalId: record.globalId,
        originRecordID: 'REF 1/2',
        href: 'https://node.example/supply-chain/data-space/consignments/urn%3Auuid%3A6f1c1f5e-5a8e-4a49-9f57-0d6b8ee1c001',
      },
    });
    expect(
      signalPayload({ ...facts, trigger: { type: 'CarrierBookingNotification', audience: 'routeOperators' } }).consignment,
    ).to.not.have.property('originRecordID');
  });
});
