import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { captured } from '../helpers/present.js';

const BASE = '/supply-chain/data-space';
type Json = Record<string, any>;

const READERS: UserName[] = ['forwarder', 'otherForwarder', 'border', 'douane', 'port', 'rotterdam'];
const ROUTES: [string, string][] = [
  ['GBFXT', 'NLRTM'],
  ['DEHAM', 'BEANR'],
  ['GBFXT', 'FRLEH'],
  ['NLRTM', 'DEHAM'],
];
/** The event each consignment gets (by its number), and the status it leaves: none, or one that moves it on. */
const EVENTS: (string | undefined)[] = [undefined, 'svc:preNotification', 'svc:despatched', 'svc:atLocationOfExit', 'svc:preNotification'];

/** A filter as the test applies it to the full list, beside the query string the node is sent. */
interface Filter {
  updatedSince?: string;
  status?: string;
  location?: string;
  scope?: 'own' | 'shared' | 'all';
}

const query = (filter: Filter): string =>
  Object.entries(filter)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');

/**
 * The list filters (updatedSince, status, location, scope) answer from the consignment index exactly
 * what a full walk of the unfiltered list, filtered here, gives: for readers under different policies,
 * every filter alone and combined, paged at small limits; bad parameters and replayed cursors are 400.
 */
describe('list filters on consignments and documents', () => {
  let node: TestNode;
  /** Each consignment's route locations, by globalId: the list items do not show the route. */
  const routes = new Map<string, string[]>();
  let mid = '';

  const publish = async (user: UserName, a: Json) => {
    const res = await node.publish(user, a);
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  };

  /** Every page at `limit` following rel="next"; a filtered page may hold fewer than `limit`, never more. */
  const walk = async (user: UserName, path: string, limit: number): Promise<Json[]> => {
    const all: Json[] = [];
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`;
    for (let pages = 0; next; pages++) {
      expect(pages, 'pages end').to.be.below(500);
      const res = await node.as(user, 'GET', next);
      expect(res.status, `${next}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.length).to.be.at.most(limit);
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      all.push(...res.body);
    }
    return all;
  };

  /** What a filter keeps of the full list, in the order the node promises: update order with updatedSince, else publication order. */
  const expected = (user: UserName, full: Json[], filter: Filter): string[] => {
    const since = filter.updatedSince === undefined ? undefined : Date.parse(filter.updatedSince);
    const kept = full.filter(
      (c) =>
        (filter.status === undefined || c.status === filter.status) &&
        (filter.location === undefined || routes.get(c.globalId)!.includes(filter.location.toUpperCase())) &&
        (filter.scope === undefined || filter.scope === 'all' || (c.owner === USERS[user].org) === (filter.scope === 'own')) &&
        (since === undefined || Date.parse(c.updated) >= since),
    );
    if (since !== undefined) kept.sort((a, b) => Date.parse(a.updated) - Date.parse(b.updated) || full.indexOf(a) - full.indexOf(b));
    return kept.map((c) => c.globalId);
  };

  before(async function () {
    this.timeout(120_000);
    node = await TestNode.start();
    const created: Record<UserName, Json[]> = { forwarder: [], otherForwarder: [], border: [], douane: [], port: [], rotterdam: [] };
    for (let i = 0; i < 20; i++) {
      const owner: UserName = i % 2 === 0 ? 'forwarder' : 'otherForwarder';
      const [from, to] = ROUTES[Math.floor(i / 2) % ROUTES.length]!;
      const c = consignment({
        loadingBaseportLocation: { type: 'LogisticsLocation', name: from, UNLocode: from },
        unloadingBaseportLocation: { type: 'LogisticsLocation', name: to, UNLocode: to },
      });
      await publish(owner, activity('Create', USERS[owner].org, c));
      routes.set(c.globalId, [from, to]);
      created[owner].push(c);
      const code = EVENTS[i % EVENTS.length];
      if (code) await publish(owner, activity('Add', USERS[owner].org, event(code), target(c)));
      if (i % 3 === 0) await publish(owner, activity('Add', USERS[owner].org, document(`DOC-${i}`), target(c)));
      if (i === 9) {
        // Half way: what changes after this shows under updatedSince=mid, in the order it changed.
        await new Promise((r) => setTimeout(r, 5));
        mid = new Date().toISOString();
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    // Earlier consignments touched again after `mid`: they come after the later ones in update order.
    for (const n of [0, 3]) {
      const c = (n === 0 ? created.forwarder : created.otherForwarder)[0]!;
      const owner: UserName = n === 0 ? 'forwarder' : 'otherForwarder';
      await publish(owner, activity('Add', USERS[owner].org, event('svc:despatched'), target(c)));
    }
    const policy = async (user: UserName, body: Json) =>
      expect((await node.as(user, 'POST', `${BASE}/policies`, body)).status).to.equal(201);
    await policy('forwarder', { role: 'locationOperator', locations: ['NLRTM'] });
    await policy('forwarder', { role: 'borderAgency', countries: ['FR'] });
    await policy('otherForwarder', { role: 'locationOperator', locations: ['GBFXT'] });
    // The GB border agency may read four of the other forwarder's consignments, no more.
    await policy('otherForwarder', {
      role: 'borderAgency',
      countries: ['GB'],
      consignments: created.otherForwarder.slice(0, 4).map((c) => c.globalId),
    });
  });
  after(async () => {
    await node?.stop();
  });

  const FILTERS = (): Filter[] => [
    { status: 'published' },
    { status: 'preNotified' },
    { status: 'despatched' },
    { status: 'atExit' },
    { status: 'delivered' },
    { location: 'NLRTM' },
    { location: 'gbfxt' },
    { location: 'FRLEH' },
    { location: 'XXNOP' },
    { scope: 'own' },
    { scope: 'shared' },
    { scope: 'all' },
    { updatedSince: mid },
    { updatedSince: '2000-01-01' },
    { updatedSince: '2999-01-01T00:00:00Z' },
    { status: 'preNotified', location: 'NLRTM' },
    { scope: 'shared', status: 'despatched' },
    { scope: 'own', location: 'DEHAM' },
    { updatedSince: mid, location: 'NLRTM' },
    { updatedSince: mid, scope: 'own' },
    { updatedSince: mid, status: 'despatched', scope: 'all' },
    { updatedSince: mid, status: 'preNotified', location: 'GBFXT', scope: 'shared' },
  ];

  it('returns for every reader, filter and combination exactly what a full scan filtered gives, at any page size', async function () {
    this.timeout(120_000);
    let nonEmpty = 0;
    for (const user of READERS) {
      const full = await walk(user, `${BASE}/consignments`, 500);
      expect(full.length, user).to.be.above(0);
      const readable = new Set(full.map((c) => c.globalId));
      for (const filter of FILTERS()) {
        const want = expected(user, full, filter);
        if (want.length > 0) nonEmpty++;
        for (const limit of [2, 500]) {
          const got = await walk(user, `${BASE}/consignments?${query(filter)}`, limit);
          expect(
            got.map((c) => c.globalId),
            `${user} ${query(filter)} limit ${limit}`,
          ).to.deep.equal(want);
          // Nothing the reader may not read, whatever the filter: the unfiltered list is what it may read.
          for (const c of got) expect(readable.has(c.globalId)).to.equal(true);
        }
      }
    }
    expect(nonEmpty, 'filters that keep something').to.be.above(READERS.length * 8);
  });

  it('never lists to a reader a consignment its policies do not cover, whatever it filters on', async () => {
    const theirs = new Set((await walk('otherForwarder', `${BASE}/consignments?scope=own`, 500)).map((c) => c.globalId));
    const border = await walk('border', `${BASE}/consignments?scope=shared`, 2);
    expect(border.map((c) => c.globalId)).to.have.length(4);
    for (const c of border) expect(theirs.has(c.globalId)).to.equal(true);
    for (const c of await walk('rotterdam', `${BASE}/consignments?location=GBFXT`, 2)) {
      expect(c.owner, 'a location operator reads only what routes through its port').to.equal(USERS.forwarder.org);
      expect(routes.get(c.globalId)).to.include('NLRTM');
    }
    expect(await walk('rotterdam', `${BASE}/consignments?scope=own`, 2)).to.deep.equal([]);
  });

  it('puts updatedSince lists in the order of the last change and takes the offset sent as is or unencoded', async () => {
    const since = await walk('forwarder', `${BASE}/consignments?updatedSince=${encodeURIComponent(mid)}`, 500);
    const times = since.map((c) => Date.parse(c.updated));
    expect(times).to.deep.equal([...times].sort((a, b) => a - b));
    expect(times.every((t) => t >= Date.parse(mid))).to.equal(true);
    const offset = new Date(Date.parse(mid) + 3_600_000).toISOString().replace('Z', '+01:00');
    const unencoded = await node.as('forwarder', 'GET', `${BASE}/consignments?limit=500&updatedSince=${offset}`);
    expect(unencoded.status, JSON.stringify(unencoded.body)).to.equal(200);
    expect(unencoded.body.map((c: Json) => c.globalId)).to.deep.equal(since.map((c) => c.globalId));
  });

  it('binds a cursor to the filters it was issued under', async () => {
    const first = await node.as('forwarder', 'GET', `${BASE}/consignments?status=preNotified&limit=1`);
    const cursor = /cursor=([^&>]+)/.exec(first.headers.get('link') ?? '')?.[1];
    expect(cursor, 'a next link').to.be.a('string');
    const plain = /cursor=([^&>]+)/.exec(
      (await node.as('forwarder', 'GET', `${BASE}/consignments?limit=1`)).headers.get('link') ?? '',
    )?.[1];
    for (const q of [
      `status=despatched&cursor=${cursor}`,
      `cursor=${cursor}`,
      `status=preNotified&scope=own&cursor=${cursor}`,
      `status=preNotified&cursor=${plain}`,
    ]) {
      const res = await node.as('forwarder', 'GET', `${BASE}/consignments?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.name).to.equal('BadRequest');
      expect(res.body.message).to.match(/^cursor was issued for the list with/);
    }
    expect((await node.as('forwarder', 'GET', `${BASE}/consignments?status=preNotified&cursor=${cursor}`)).status).to.equal(200);
    // Nor from one list to the other under the same filter: a document's place is not a consignment's.
    const docs = await node.as('forwarder', 'GET', `${BASE}/documents?scope=own&limit=1`);
    const docCursor = /cursor=([^&>]+)/.exec(docs.headers.get('link') ?? '')?.[1];
    expect(docCursor, 'a next link on documents').to.be.a('string');
    expect((await node.as('forwarder', 'GET', `${BASE}/consignments?scope=own&cursor=${docCursor}`)).status).to.equal(400);
    expect((await node.as('forwarder', 'GET', `${BASE}/documents?scope=own&cursor=${docCursor}`)).status).to.equal(200);
  });

  it('refuses a malformed, repeated or unknown parameter with 400 naming it', async () => {
    const bad: [string, string][] = [
      ['updatedSince=yesterday', 'updatedSince'],
      ['updatedSince=2026-02-30', 'updatedSince'],
      ['updatedSince=2026-11-27T10:00:00', 'updatedSince'],
      ['updatedSince=2026-11-27T25:00:00Z', 'updatedSince'],
      ['updatedSince=', 'updatedSince'],
      ['status=lost', 'status'],
      ['status=preNotified&status=despatched', 'status'],
      ['status=', 'status'],
      ['location=NL-RTM', 'location'],
      ['location=%3Cscript%3E', 'location'],
      [`location=${'A'.repeat(40)}`, 'location'],
      ['scope=mine', 'scope'],
      ['updated_since=2026-11-27', 'updated_since'],
      ['cursor=zzz', 'cursor'],
    ];
    for (const [q, name] of bad) {
      const res = await node.as('border', 'GET', `${BASE}/consignments?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
      expect(res.body.message, q).to.include(name);
    }
  });

  it("filters the documents list by its consignments' status, route and owner", async function () {
    this.timeout(60_000);
    for (const user of READERS) {
      const full = await walk(user, `${BASE}/consignments`, 500);
      const byId = new Map(full.map((c) => [c.globalId, c]));
      const docs = await walk(user, `${BASE}/documents`, 500);
      for (const filter of [
        { status: 'published' },
        { status: 'despatched' },
        { location: 'NLRTM' },
        { scope: 'own' },
        { scope: 'shared' },
        { scope: 'shared', location: 'gbfxt' },
      ] as Filter[]) {
        const kept = new Set(expected(user, full, filter));
        const want = docs.filter((d) => kept.has(d.consignmentId)).map((d) => d.id);
        for (const limit of [1, 500]) {
          const got = await walk(user, `${BASE}/documents?${query(filter)}`, limit);
          expect(
            got.map((d) => d.id),
            `${user} ${query(filter)} limit ${limit}`,
          ).to.deep.equal(want);
          for (const d of got) expect(byId.has(d.consignmentId)).to.equal(true);
        }
      }
    }
    for (const q of ['updatedSince=2026-01-01', 'status=lost', 'consignmentId=x&status=published']) {
      const res = await node.as('forwarder', 'GET', `${BASE}/documents?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
    }
  });

  it("gives the console's list the same filters, blank fields meaning any, and the OpenAPI document their parameters", async () => {
    const cookie = `access_token=${await node.login('douane')}`;
    const want = (await walk('douane', `${BASE}/consignments?status=preNotified&location=NLRTM`, 500)).map((c) => c.globalId);
    expect(want.length).to.be.above(1);
    const shown: string[] = [];
    let next: string | undefined = '/console/consignments?status=preNotified&location=nlrtm&scope=all&updatedSince=&limit=1';
    while (next) {
      const page = await node.request('GET', next, { headers: { cookie } });
      expect(page.status, page.text).to.equal(200);
      expect(page.text).to.match(/<option value="preNotified" selected>/);
      shown.push(...[...page.text.matchAll(/<td class="mono">([^<]+)<\/td>/g)].map((m) => m[1]!));
      next = /<a rel="next" href="([^"]+)"/.exec(page.text)?.[1]?.replaceAll('&amp;', '&');
      if (next) expect(next).to.include('status=preNotified');
    }
    expect(shown).to.deep.equal(want);
    const bad = await node.request('GET', '/console/consignments?status=lost', { headers: { cookie } });
    expect(bad.status).to.equal(400);
    expect(bad.text).to.include('status must be one of');
    const doc = (await node.request('GET', '/openapi.json')).body;
    const names = (path: string) => doc.paths[`${BASE}/${path}`].get.parameters.map((p: Json) => p.name);
    expect(names('consignments')).to.include.members(['cursor', 'limit', 'updatedSince', 'status', 'location', 'scope']);
    expect(names('documents')).to.include.members(['status', 'location', 'scope']).and.not.include('updatedSince');
  });

  it('shows a consignment that changes during an updatedSince walk again further on, with its new state', async () => {
    await new Promise((r) => setTimeout(r, 5));
    const since = new Date().toISOString();
    const made: Json[] = [];
    for (let i = 0; i < 3; i++) {
      const c = consignment();
      await publish('forwarder', activity('Create', USERS.forwarder.org, c));
      made.push(c);
    }
    const first = await node.as('forwarder', 'GET', `${BASE}/consignments?updatedSince=${encodeURIComponent(since)}&limit=1`);
    expect(first.body.map((c: Json) => c.globalId)).to.deep.equal([made[0]!.globalId]);
    await publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(made[0]!)));
    const next = captured(/<([^>]+)>;\s*rel="next"/, first.headers.get('link') ?? '');
    const rest = await walk('forwarder', next.replace(/&limit=1$|limit=1&/, ''), 1);
    expect(rest.map((c) => c.globalId)).to.deep.equal([made[1]!.globalId, made[2]!.globalId, made[0]!.globalId]);
    expect(rest.at(-1)!.status).to.equal('despatched');
  });
});
