import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, D23B, event, newGlobalId, target, type Json } from '../helpers/payloads.js';
import { pause, SignalReceiver, testSecret } from '../helpers/signal-receiver.js';

const BASE = '/supply-chain/data-space';
const GS1_UN_LOCODE = 'https://ref.gs1.org/voc/LocationID_Type-UN_LOCODE';
const at = (location: Json): Json => ({
  arrivalEvent: [{ type: 'TransportEvent', occurrenceLogisticsLocation: { type: 'LogisticsLocation', ...location } }],
});

/** A consignment whose only route is `route` (merged into its fields). */
function routed(route: Json): Json {
  return { '@context': D23B, type: 'Consignment', identifier: `ROUTE-${newGlobalId().slice(-8)}`, globalId: newGlobalId(), ...route };
}

/** Each form pilots write a location in (real-payloads.md), all naming Felixstowe, GBFXT. */
const FORMS: [string, Json][] = [
  [
    'a GS1 UN/LOCODE value object on an arrival event (pilot A; issue row 1)',
    { atArrivalTransportMovement: at({ identifier: { '@type': GS1_UN_LOCODE, '@value': 'GBFXT' } }) },
  ],
  [
    'a plain-string identifier on a single arrival event (pilot B″)',
    { atArrivalTransportMovement: { arrivalEvent: { occurrenceLogisticsLocation: { name: 'Felixstowe', identifier: 'GBFXT' } } } },
  ],
  [
    'an unloadingLocation named by id unece:LOCODE#GBFXT (pilot E)',
    { unloadingLocation: { type: 'LogisticsLocation', id: 'unece:LOCODE#GBFXT', name: 'Felixstowe' } },
  ],
  [
    'UNLocode on the unloading baseport (spec 2.4)',
    { unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' } },
  ],
  [
    'a loading event of an included consignment',
    {
      includedConsignment: [
        {
          type: 'Consignment',
          identifier: 'PART-1',
          specifiedTransportMovement: { loadingEvent: { occurrenceLogisticsLocation: { identifier: 'GBFXT' } } },
        },
      ],
    },
  ],
];

/** Forms that name no UN/LOCODE: an IATA code, a place name as text. (Pilot B's {type, value} node is refused: identifier is text.) */
const NOT_ROUTES: [string, Json][] = [
  [
    'a GS1 IATA code',
    { atArrivalTransportMovement: at({ identifier: { '@type': 'https://ref.gs1.org/voc/LocationID_Type-IATA_CODE', '@value': 'GBFXT' } }) },
  ],
  ['a place name as a plain identifier', { atArrivalTransportMovement: at({ identifier: 'Dover' }) }],
];

describe('pilot route forms: one reading of a route for policies, lists, the change feed and signals', () => {
  let node: TestNode;
  const receivers = {} as Record<'port' | 'rotterdam', SignalReceiver>;

  const visibleTo = async (user: UserName, globalId: string) => {
    const read = await node.as(user, 'GET', `${BASE}/consignments/${encodeURIComponent(globalId)}`);
    const list = await node.as(user, 'GET', `${BASE}/consignments?limit=100`);
    const located = await node.as(user, 'GET', `${BASE}/consignments?location=gbfxt&limit=100`);
    const feed = await changeFeed(user);
    return {
      read: read.status,
      listed: list.body.some((c: Json) => c.globalId === globalId),
      locationFilter: located.body.some((c: Json) => c.globalId === globalId),
      changeFeed: feed.includes(globalId),
    };
  };

  const changeFeed = async (user: UserName): Promise<string> => {
    const collection = await node.as(user, 'GET', `${BASE}/changes`);
    let path = new URL(collection.body.first).pathname + new URL(collection.body.first).search;
    let text = '';
    for (let page = 0; page < 50; page++) {
      const res = await node.as(user, 'GET', path);
      expect(res.status, res.text).to.equal(200);
      text += JSON.stringify(res.body.orderedItems);
      if (res.body.orderedItems.length === 0 && !res.body.partial) return text;
      path = new URL(res.body.next).pathname + new URL(res.body.next).search;
    }
    return text;
  };

  const publishAndBook = async (c: Json) => {
    const created = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.status, created.text).to.equal('completed');
    const booked = await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:carrierBooking'), target(c)));
    expect(booked.body.status, booked.text).to.equal('completed');
  };

  before(async () => {
    node = await TestNode.start({ DATASPACE_NOTIFY_RETRY_MS: '20' });
    for (const name of ['port', 'rotterdam'] as const) {
      receivers[name] = await SignalReceiver.start();
      const res = await node.as(name, 'PUT', `${BASE}/notification-endpoint`, { url: receivers[name].url, secret: testSecret(name) });
      expect(res.status, res.text).to.equal(200);
    }
    // Both operators are covered by the forwarder's policy: only the route tells them apart.
    const policy = await node.as('forwarder', 'POST', `${BASE}/policies`, { role: 'locationOperator', locations: ['GBFXT', 'NLRTM'] });
    expect(policy.status, policy.text).to.equal(201);
  });
  after(async () => {
    await node.stop();
    await Promise.all(Object.values(receivers).map((r) => r.close()));
  });

  for (const [form, route] of FORMS) {
    it(`routes through GBFXT by ${form}: the Felixstowe operator reads, lists, sees the change and is notified; Rotterdam none`, async () => {
      const c = routed(route);
      await publishAndBook(c);
      expect(await visibleTo('port', c.globalId)).to.deep.equal({ read: 200, listed: true, locationFilter: true, changeFeed: true });
      expect(await visibleTo('rotterdam', c.globalId)).to.deep.equal({
        read: 404,
        listed: false,
        locationFilter: false,
        changeFeed: false,
      });
      const [notice] = await receivers.port.until((r) => r.some((x) => x.json?.consignment?.globalId === c.globalId));
      expect(receivers.port.about(c.globalId).map((r) => r.json.type)).to.deep.equal(['CarrierBookingNotification']);
      expect(notice).to.not.equal(undefined);
      await pause(100);
      expect(receivers.rotterdam.about(c.globalId)).to.deep.equal([]);
    });
  }

  it('counts no route for an IATA code or a place name as text', async () => {
    const made = NOT_ROUTES.map(([, route]) => routed(route));
    for (const c of made) await publishAndBook(c);
    // A sentinel routed through GBFXT: once its notification is in, the others' would be too.
    const sentinel = routed(FORMS[0]![1]);
    await publishAndBook(sentinel);
    await receivers.port.until((r) => r.some((x) => x.json?.consignment?.globalId === sentinel.globalId));
    for (const [i, c] of made.entries()) {
      expect(await visibleTo('port', c.globalId), NOT_ROUTES[i]![0]).to.deep.equal({
        read: 404,
        listed: false,
        locationFilter: false,
        changeFeed: false,
      });
      expect(receivers.port.about(c.globalId), NOT_ROUTES[i]![0]).to.deep.equal([]);
    }
  });
});
