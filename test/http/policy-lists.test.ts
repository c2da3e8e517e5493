import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { Visibility } from '../../src/core/policy/visibility.js';
import { StoreEngine } from '../../src/adapters/sparql-endpoint/engine.js';
import { nth } from '../helpers/present.js';

const BASE = '/supply-chain/data-space';
type Json = Record<string, any>;

/**
 * Lists page through publication order kept in memory and decide each candidate by the coverage rule:
 * pages must stay complete, ordered and free of repeats while writes change what a reader may see.
 */
describe('lists under policies while the data changes', () => {
  let node: TestNode;

  const routed = (from: string, to: string, overrides: Json = {}) =>
    consignment({
      loadingBaseportLocation: { type: 'LogisticsLocation', name: from, UNLocode: from },
      unloadingBaseportLocation: { type: 'LogisticsLocation', name: to, UNLocode: to },
      ...overrides,
    });
  const publish = async (user: UserName, a: Json) => {
    const res = await node.publish(user, a);
    expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
  };
  const create = async (user: UserName, c: Json) => {
    await publish(user, activity('Create', USERS[user].org, c));
    return c;
  };

  /** Every page at `limit`, following rel="next"; asserts each page's size. */
  const walk = async (user: UserName, path: string, limit: number): Promise<Json[]> => {
    const all: Json[] = [];
    let next: string | undefined = `${path}?limit=${limit}`;
    while (next) {
      const res = await node.as(user, 'GET', next);
      expect(res.status).to.equal(200);
      expect(res.body.length).to.be.at.most(limit);
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
      if (next) expect(res.body.length, 'a page before the last is full').to.equal(limit);
      all.push(...res.body);
    }
    return all;
  };
  const globalIds = async (user: UserName, limit = 2) => (await walk(user, `${BASE}/consignments`, limit)).map((c) => c.globalId);

  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it("pages a location operator's list in publication order, complete and without repeats, among others' consignments", async () => {
    expect((await node.as('forwarder', 'POST', `${BASE}/policies`, { role: 'locationOperator', locations: ['NLRTM'] })).status).to.equal(
      201,
    );
    const expected: string[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await create('forwarder', i % 2 === 0 ? routed('GBFXT', 'NLRTM') : routed('DEHAM', 'BEANR'));
      if (i % 2 === 0) expected.push(c.globalId);
      await create('otherForwarder', routed('GBFXT', 'NLRTM'));
    }
    for (const limit of [1, 2, 3, 500]) expect(await globalIds('rotterdam', limit), `limit ${limit}`).to.deep.equal(expected);
  });

  it('follows an Update that routes a consignment away from the location and back', async () => {
    const c = await create('forwarder', routed('GBFXT', 'NLRTM'));
    expect(await globalIds('rotterdam')).to.include(c.globalId);
    await publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, {
        ...c,
        unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Antwerp', UNLocode: 'BEANR' },
      }),
    );
    expect(await globalIds('rotterdam')).to.not.include(c.globalId);
    expect((await node.as('rotterdam', 'GET', `${BASE}/consignments/${encodeURIComponent(c.globalId)}`)).status).to.equal(404);
    await publish('forwarder', activity('Update', USERS.forwarder.org, c));
    expect(await globalIds('rotterdam')).to.include(c.globalId);
    expect((await node.as('rotterdam', 'GET', `${BASE}/consignments/${encodeURIComponent(c.globalId)}`)).status).to.equal(200);
  });

  it('lists a consignment an Update routes through the location for the first time', async () => {
    const c = await create('forwarder', routed('DEHAM', 'BEANR'));
    expect(await globalIds('rotterdam')).to.not.include(c.globalId);
    await publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, {
        ...c,
        unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Rotterdam', UNLocode: 'NLRTM' },
      }),
    );
    const listed = await globalIds('rotterdam');
    expect(listed).to.include(c.globalId);
    expect(listed.indexOf(c.globalId), 'in publication order').to.equal(listed.length - 1);
  });

  it('lists a consignment right after it is published, and drops it the moment its policy goes', async () => {
    const policy = await node.as('forwarder', 'POST', `${BASE}/policies`, { role: 'borderAgency', countries: ['FR'] });
    const c = await create('forwarder', routed('GBFXT', 'FRLEH'));
    expect(await globalIds('douane', 50)).to.include(c.globalId);
    expect((await node.as('forwarder', 'DELETE', `${BASE}/policies/${encodeURIComponent(policy.body.id)}`)).status).to.equal(204);
    expect(await globalIds('douane', 50)).to.deep.equal([]);
  });

  it('pages documents across consignments once each, new revisions included, for owner and reader', async () => {
    const mine = await create('forwarder', routed('GBFXT', 'NLRTM'));
    const offRoute = await create('forwarder', routed('DEHAM', 'BEANR'));
    const theirs = await create('otherForwarder', routed('GBFXT', 'NLRTM'));
    for (const [user, c, id] of [
      ['forwarder', mine, 'D-1'],
      ['forwarder', offRoute, 'D-2'],
      ['otherForwarder', theirs, 'D-3'],
      ['forwarder', mine, 'D-4'],
      ['forwarder', mine, 'D-1'],
    ] as const) {
      await publish(user, activity('Add', USERS[user].org, document(id), target(c)));
    }
    const docs = async (user: UserName) =>
      (await walk(user, `${BASE}/documents`, 1)).filter((d) =>
        [mine.globalId, offRoute.globalId, theirs.globalId].includes(d.consignmentId),
      );
    const owner = await docs('forwarder');
    expect(owner.map((d) => d.documentId)).to.deep.equal(['D-1', 'D-2', 'D-4']);
    expect(nth(owner, 0).documentRevision).to.equal(2);
    expect((await docs('rotterdam')).map((d) => d.documentId)).to.deep.equal(['D-1', 'D-4']);
    expect((await docs('otherForwarder')).map((d) => d.documentId)).to.deep.equal(['D-3']);
  });

  it('gives the same answers through the plain SPARQL queries a node on a SPARQL server uses', async () => {
    // A node on an external store has no in-memory publication order: lists run views/list-*.rq, and
    // the SPARQL endpoint runs on the store over the graph list of policy/visible-graphs.rq.
    const plain = new Visibility(node.node.store, new QueryBank());
    const engine = new StoreEngine(node.node.store, (p) => plain.visibleGraphs(p));
    for (const user of ['forwarder', 'otherForwarder', 'border', 'douane', 'port', 'rotterdam'] as UserName[]) {
      const principal = {
        email: USERS[user].email,
        org: node.node.registry.organisation(node.node.users.organisationOf(USERS[user].email)!)!,
      };
      const listed = await globalIds(user, 500);
      expect(
        (await plain.list(principal, 0, 500)).map((c) => c.globalId),
        user,
      ).to.deep.equal(listed);
      const docs = (await walk(user, `${BASE}/documents`, 500)).map((d) => d.id);
      if (user === 'rotterdam') expect(docs.length).to.be.above(0);
      expect(
        (await plain.documentPage(principal, 0, 500)).map((d) => d.document),
        user,
      ).to.deep.equal(docs);
      const ids = JSON.parse(
        await engine.run(
          {
            query: 'SELECT DISTINCT ?id WHERE { GRAPH ?g { ?c <https://vocabulary.uncefact.org/globalId> ?id } }',
            format: 'application/sparql-results+json',
            principal,
          },
          10_000,
        ),
      );
      expect(ids.results.bindings.map((b: Json) => b.id.value).sort(), user).to.deep.equal([...listed].sort());
    }
  });
});
