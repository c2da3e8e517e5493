import { expect } from 'chai';
import n3 from 'n3';
import jsonld from 'jsonld';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const BASE = '/supply-chain/data-space';
const path = (id: string, scope?: string) => `${BASE}/consignments/${encodeURIComponent(id)}${scope ? `?scope=${scope}` : ''}`;

type Json = Record<string, any>;

/**
 * scope (spec 4.4) and the RDF exports of get-a-consignment. The forwarder publishes a consignment with
 * an event and a document; the Felixstowe operator adds its match event. The operator and the GB border
 * agency read under policies.
 */
describe('scope and RDF exports of a consignment', () => {
  let node: TestNode;
  let c: Json;

  const read = async (user: UserName, scope?: string): Promise<Json> => {
    const res = await node.as(user, 'GET', path(c.globalId, scope));
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  const exported = async (user: UserName, accept: string, scope?: string) => {
    const res = await node.request('GET', path(c.globalId, scope), { token: await node.login(user), headers: { accept } });
    expect(res.status, res.text).to.equal(200);
    return res;
  };
  const quadsOf = (text: string, format: string) => new n3.Parser({ format }).parse(text);
  const graphsOf = (quads: n3.Quad[]) => new Set(quads.map((q) => q.graph.value));

  before(async () => {
    node = await TestNode.start();
    // First: the operator's match needs a policy that lets it read the consignment (issue 13).
    for (const policy of [
      { role: 'locationOperator', locations: ['GBFXT'] },
      { role: 'borderAgency', countries: ['GB'] },
    ]) {
      expect((await node.as('forwarder', 'POST', `${BASE}/policies`, policy)).status).to.equal(201);
    }
    c = consignment();
    const forwarder = USERS.forwarder.org;
    for (const a of [
      activity('Create', forwarder, c),
      activity('Add', forwarder, event('svc:atLocationOfExit'), target(c)),
      activity('Add', forwarder, document('INV-SCOPE'), target(c)),
      activity('Add', USERS.port.org, event('svc:locationOperatorMatch'), target(c)),
    ]) {
      const user: UserName = a.actor.registeredId['@value'] === forwarder ? 'forwarder' : 'port';
      const res = await node.publish(user, a);
      expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
    }
  });
  after(async () => {
    await node.stop();
  });

  describe('scope', () => {
    const codes = (view: Json) => view.events.map((e: Json) => e.typeCode);
    const publishers = (view: Json) => [...new Set([...view.events, ...view.documents].map((e: Json) => e.publisher))];

    it("gives the forwarder its own contributions under own, the operator's under shared, and both under all with its own first", async () => {
      const own = await read('forwarder', 'own');
      expect(codes(own)).to.deep.equal(['svc:atLocationOfExit']);
      expect(own.documents.map((d: Json) => d.documentId)).to.deep.equal(['INV-SCOPE']);
      expect(own.summaryDescription).to.equal('Machine parts');
      const shared = await read('forwarder', 'shared');
      expect(codes(shared)).to.deep.equal(['svc:locationOperatorMatch']);
      expect(shared.documents).to.deep.equal([]);
      expect(shared.summaryDescription).to.equal(undefined);
      const all = await read('forwarder');
      expect(codes(all)).to.deep.equal(['svc:atLocationOfExit', 'svc:locationOperatorMatch']);
      expect(await read('forwarder', 'all')).to.deep.equal(all);
    });

    it("gives the operator its match event under own and the forwarder's data under shared", async () => {
      const own = await read('port', 'own');
      expect(codes(own)).to.deep.equal(['svc:locationOperatorMatch']);
      expect(publishers(own)).to.deep.equal([USERS.port.org]);
      const shared = await read('port', 'shared');
      expect(codes(shared)).to.deep.equal(['svc:atLocationOfExit']);
      expect(publishers(shared)).to.deep.equal([USERS.forwarder.org]);
      expect(shared.summaryDescription).to.equal('Machine parts');
      expect(codes(await read('port'))).to.deep.equal(['svc:locationOperatorMatch', 'svc:atLocationOfExit']);
    });

    it('gives a border agency nothing of its own and everything it may read as shared', async () => {
      const own = await read('border', 'own');
      expect(own.events).to.deep.equal([]);
      expect(own.documents).to.deep.equal([]);
      expect(own.id).to.equal(c.globalId);
      expect(codes(await read('border', 'shared'))).to.deep.equal(['svc:atLocationOfExit', 'svc:locationOperatorMatch']);
    });

    it('refuses an unknown scope with 400', async () => {
      const res = await node.as('forwarder', 'GET', path(c.globalId, 'everything'));
      expect(res.status).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
    });
  });

  describe('RDF exports', () => {
    it('keeps the JSON read view the default, and says the answer varies by Accept', async () => {
      for (const accept of [undefined, '*/*', 'application/json', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
        const res = await node.request('GET', path(c.globalId), {
          token: await node.login('forwarder'),
          headers: accept ? { accept } : {},
        });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type'), String(accept)).to.match(/^application\/json/);
        expect(res.headers.get('vary')).to.match(/accept/i);
        expect(res.body.id).to.equal(c.globalId);
      }
    });

    it("answers N-Quads with one named graph per visible data graph and nothing of the node's own graphs", async () => {
      const view = await read('forwarder');
      const res = await exported('forwarder', 'application/n-quads');
      expect(res.headers.get('content-type')).to.match(/^application\/n-quads/);
      const quads = quadsOf(res.text, 'application/n-quads');
      const graphs = graphsOf(quads);
      // The state graph, two events, one document revision.
      expect(graphs.size).to.equal(4);
      for (const e of view.events) expect(graphs.has(e.id), e.id).to.equal(true);
      expect([...graphs].some((g) => g.startsWith('urn:dataspace:'))).to.equal(false);
      expect(quads.some((q) => q.subject.value === c.globalId && q.object.value === 'Machine parts')).to.equal(true);
      expect(res.text).to.include('INV-SCOPE');
    });

    it('answers TriG and JSON-LD holding the same quads, and Turtle holding the same triples merged', async () => {
      const nquads = quadsOf((await exported('forwarder', 'application/n-quads')).text, 'application/n-quads');
      const trig = await exported('forwarder', 'application/trig');
      expect(trig.headers.get('content-type')).to.match(/^application\/trig/);
      expect(quadsOf(trig.text, 'application/trig')).to.have.length(nquads.length);
      const ld = await exported('forwarder', 'application/ld+json');
      expect(ld.headers.get('content-type')).to.match(/^application\/ld\+json/);
      // The compacted document names the node's own D23B context, which the node serves; nothing else is fetched.
      const fromNode = async (url: string) => {
        if (!url.startsWith(`${node.url}/contexts/`)) throw new Error(`${url} is not the node's`);
        return { contextUrl: null, documentUrl: url, document: await (await fetch(url)).json() };
      };
      const fromLd = (await jsonld.toRDF(JSON.parse(ld.text), {
        format: 'application/n-quads',
        documentLoader: fromNode as never,
      })) as unknown as string;
      const ldQuads = quadsOf(fromLd, 'application/n-quads');
      expect(ldQuads).to.have.length(nquads.length);
      expect(graphsOf(ldQuads)).to.deep.equal(graphsOf(nquads));
      const turtle = await exported('forwarder', 'text/turtle');
      expect(turtle.headers.get('content-type')).to.match(/^text\/turtle/);
      const triples = quadsOf(turtle.text, 'text/turtle');
      expect(triples.length).to.equal(new Set(nquads.map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`)).size);
      expect(graphsOf(triples)).to.deep.equal(new Set(['']));
    });

    it('limits the export to the scope', async () => {
      const own = graphsOf(quadsOf((await exported('port', 'application/n-quads', 'own')).text, 'application/n-quads'));
      const view = await read('port', 'own');
      expect([...own]).to.deep.equal(view.events.map((e: Json) => e.id));
      const shared = graphsOf(quadsOf((await exported('port', 'application/n-quads', 'shared')).text, 'application/n-quads'));
      expect(shared.size).to.equal(3);
      expect([...shared].some((g) => own.has(g))).to.equal(false);
      const empty = await exported('border', 'application/n-quads', 'own');
      expect(empty.text).to.equal('');
    });
  });
});
