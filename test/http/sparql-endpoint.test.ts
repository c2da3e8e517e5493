import { expect } from 'chai';
import n3 from 'n3';
import { TestNode, USERS, type HttpAnswer, type UserName } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { firstOf, nth } from '../helpers/present.js';

const SPARQL = '/supply-chain/data-space/sparql';
const NODE_GRAPHS = ['registry', 'metadata', 'policies', 'activity-log', 'outbox'].map((g) => `urn:dataspace:graph:${g}`);
const ALL_QUADS = 'SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }';

type Json = Record<string, any>;

/** The SPARQL 1.1 Protocol endpoint: request forms, result formats, the dataset, refusals and limits. */
describe('SPARQL endpoint', () => {
  let node: TestNode;
  let mine: Json;
  let theirs: Json;

  const query = async (
    user: UserName,
    text: string,
    accept = 'application/sparql-results+json',
    how: 'get' | 'form' | 'body' = 'body',
    n = node,
  ): Promise<HttpAnswer> => {
    const token = await n.login(user);
    if (how === 'get') return n.request('GET', `${SPARQL}?query=${encodeURIComponent(text)}`, { token, headers: { accept } });
    if (how === 'form') {
      return n.request('POST', SPARQL, {
        token,
        rawBody: new URLSearchParams({ query: text }).toString(),
        headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
      });
    }
    return n.request('POST', SPARQL, { token, rawBody: text, headers: { accept, 'content-type': 'application/sparql-query' } });
  };
  const graphs = async (user: UserName, text = 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }', n = node): Promise<string[]> => {
    const res = await query(user, text, 'application/sparql-results+json', 'body', n);
    expect(res.status, res.text).to.equal(200);
    return res.body.results.bindings.map((b: Json) => b.g.value).sort();
  };

  before(async () => {
    node = await TestNode.start();
    mine = consignment();
    theirs = consignment();
    for (const [user, a] of [
      ['forwarder', activity('Create', USERS.forwarder.org, mine)],
      ['forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(mine))],
      ['otherForwarder', activity('Create', USERS.otherForwarder.org, theirs)],
    ] as const) {
      expect((await node.publish(user, a)).body.status).to.equal('completed');
    }
  });
  after(async () => {
    await node.stop();
  });

  describe('protocol', () => {
    for (const how of ['get', 'form', 'body'] as const) {
      it(`answers a query sent by ${how === 'get' ? 'GET ?query=' : how === 'form' ? 'a form POST' : 'an application/sparql-query POST'}`, async () => {
        const res = await query(
          'forwarder',
          `SELECT ?id WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id }`,
          'application/sparql-results+json',
          how,
        );
        expect(res.status, res.text).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
        expect(res.body.results.bindings.map((b: Json) => b.id.value)).to.deep.equal([mine.globalId]);
      });
    }

    const selectFormats: [string, RegExp][] = [
      ['application/sparql-results+json', /^application\/sparql-results\+json/],
      ['application/sparql-results+xml', /^application\/sparql-results\+xml/],
      ['text/csv', /^text\/csv/],
      ['text/tab-separated-values', /^text\/tab-separated-values/],
      ['application/json', /^application\/json/],
    ];
    for (const [accept, type] of selectFormats) {
      it(`answers SELECT as ${accept}`, async () => {
        const res = await query('forwarder', ALL_QUADS, accept);
        expect(res.status, res.text).to.equal(200);
        expect(res.headers.get('content-type')).to.match(type);
        expect(res.text).to.include(mine.globalId);
        expect(res.text).to.not.include(theirs.globalId);
      });
    }

    it('answers ASK as a boolean in JSON and XML', async () => {
      const ask = `ASK { GRAPH ?g { <${mine.globalId}> ?p ?o } }`;
      expect((await query('forwarder', ask)).body).to.deep.include({ boolean: true });
      expect((await query('otherForwarder', ask)).body).to.deep.include({ boolean: false });
      expect((await query('forwarder', ask, 'application/sparql-results+xml')).text).to.match(/<boolean>true<\/boolean>/);
    });

    const graphFormats: [string, string | undefined][] = [
      ['text/turtle', 'text/turtle'],
      ['application/n-triples', 'application/n-triples'],
      ['application/n-quads', 'application/n-quads'],
      ['application/trig', 'application/trig'],
      ['application/ld+json', undefined],
    ];
    for (const [accept, parseAs] of graphFormats) {
      it(`answers CONSTRUCT and DESCRIBE as ${accept}`, async () => {
        for (const text of ['CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }', `DESCRIBE <${mine.globalId}>`]) {
          const res = await query('forwarder', text, accept);
          expect(res.status, res.text).to.equal(200);
          expect(res.headers.get('content-type')!.startsWith(accept)).to.equal(true);
          const subjects = parseAs
            ? new n3.Parser({ format: parseAs }).parse(res.text).map((q) => q.subject.value)
            : (JSON.parse(res.text) as Json[]).map((n) => n['@id']);
          expect(subjects).to.include(mine.globalId);
          expect(res.text).to.not.include(theirs.globalId);
        }
      });
    }

    it('defaults to SPARQL JSON for SELECT and Turtle for CONSTRUCT when any type is accepted', async () => {
      expect((await query('forwarder', ALL_QUADS, '*/*')).headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
      expect((await query('forwarder', 'CONSTRUCT WHERE { ?s ?p ?o }', '*/*')).headers.get('content-type')).to.match(/^text\/turtle/);
    });

    it('answers 406 when no offered format is acceptable', async () => {
      const res = await query('forwarder', ALL_QUADS, 'text/html');
      expect(res.status).to.equal(406);
      expect(res.body).to.have.keys('name', 'message');
    });

    it('describes itself when no query is given', async () => {
      const token = await node.login('forwarder');
      const turtle = await node.request('GET', SPARQL, { token });
      expect(turtle.status).to.equal(200);
      expect(turtle.headers.get('content-type')).to.match(/^text\/turtle/);
      const quads = new n3.Parser({ format: 'text/turtle' }).parse(turtle.text);
      const sd = 'http://www.w3.org/ns/sparql-service-description#';
      expect(quads.some((q) => q.predicate.value === `${sd}supportedLanguage` && q.object.value === `${sd}SPARQL11Query`)).to.equal(true);
      expect(quads.some((q) => q.predicate.value === `${sd}endpoint` && q.object.value.endsWith(SPARQL))).to.equal(true);
      const ld = await node.request('GET', SPARQL, { token, headers: { accept: 'application/ld+json' } });
      expect(ld.status).to.equal(200);
      expect(JSON.stringify(ld.body)).to.include('SPARQL11Query');
    });

    it('answers 400 for a query that is not SPARQL, and for a POST without a query', async () => {
      for (const res of [await query('forwarder', 'SELECT ?s WHERE { ?s ?p }'), await query('forwarder', 'hello', undefined, 'get')]) {
        expect(res.status).to.equal(400);
        expect(res.body).to.have.keys('name', 'message');
      }
      const token = await node.login('forwarder');
      const empty = await node.request('POST', SPARQL, {
        token,
        rawBody: '',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(empty.status).to.equal(400);
    });

    it('answers 415 for a POST body of another type, 405 for other methods, 401 without credentials', async () => {
      const token = await node.login('forwarder');
      expect(
        (await node.request('POST', SPARQL, { token, rawBody: ALL_QUADS, headers: { 'content-type': 'text/plain' } })).status,
      ).to.equal(415);
      const put = await node.request('PUT', SPARQL, { token, rawBody: ALL_QUADS, headers: { 'content-type': 'application/sparql-query' } });
      expect(put.status).to.equal(405);
      expect(put.headers.get('allow')).to.equal('GET, HEAD, POST');
      expect((await node.request('GET', `${SPARQL}?query=${encodeURIComponent(ALL_QUADS)}`)).status).to.equal(401);
    });
  });

  describe("the dataset is the caller's visible graphs", () => {
    it("lets GRAPH ?g range over the caller's data graphs only, never another's or the node's own", async () => {
      const forwarder = await graphs('forwarder');
      const other = await graphs('otherForwarder');
      expect(forwarder).to.have.length(2);
      expect(other).to.have.length(1);
      expect(forwarder.filter((g) => other.includes(g))).to.deep.equal([]);
      for (const g of [...forwarder, ...other]) expect(g).to.match(/^urn:uuid:/);
      expect(await graphs('border')).to.deep.equal([]);
    });

    it('shows nothing of the registry, metadata, policies, activity log or outbox, however they are named', async () => {
      expect(
        (await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['GB'] })).status,
      ).to.equal(201);
      for (const g of NODE_GRAPHS) {
        for (const text of [
          `SELECT * WHERE { GRAPH <${g}> { ?s ?p ?o } }`,
          `SELECT * FROM <${g}> WHERE { ?s ?p ?o }`,
          `SELECT * FROM NAMED <${g}> WHERE { GRAPH ?g { ?s ?p ?o } }`,
        ]) {
          const res = await query('forwarder', text);
          expect(res.status, text).to.equal(200);
          expect(res.body.results.bindings, text).to.deep.equal([]);
        }
        const token = await node.login('forwarder');
        const byProtocol = await node.request(
          'GET',
          `${SPARQL}?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o }')}&default-graph-uri=${encodeURIComponent(g)}`,
          { token },
        );
        expect(byProtocol.body.results.bindings).to.deep.equal([]);
      }
      const everything = (await query('forwarder', ALL_QUADS)).text;
      for (const secret of ['passwordHash', 'forwarder-pass', 'odrl', 'ConsignmentRecord', 'ops@forwarder.example'])
        expect(everything).to.not.include(secret);
    });

    it("narrows the dataset by FROM / FROM NAMED and by the protocol's graph parameters, within the visible graphs", async () => {
      const [first, second] = firstOf(await graphs('forwarder'), 2);
      const foreign = nth(await graphs('otherForwarder'), 0);
      expect(
        await graphs('forwarder', `SELECT DISTINCT ?g FROM NAMED <${first}> FROM NAMED <${foreign}> WHERE { GRAPH ?g { ?s ?p ?o } }`),
      ).to.deep.equal([first]);
      const fromDefault = await query('forwarder', `SELECT (COUNT(*) AS ?n) FROM <${second}> WHERE { ?s ?p ?o }`);
      const inGraph = await query('forwarder', `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${second}> { ?s ?p ?o } }`);
      expect(fromDefault.body.results.bindings[0].n.value).to.equal(inGraph.body.results.bindings[0].n.value);
      // FROM without FROM NAMED leaves no named graphs.
      expect(await graphs('forwarder', `SELECT DISTINCT ?g FROM <${first}> WHERE { GRAPH ?g { ?s ?p ?o } }`)).to.deep.equal([]);
      const token = await node.login('forwarder');
      const q = encodeURIComponent('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
      const res = await node.request(
        'GET',
        `${SPARQL}?query=${q}&named-graph-uri=${encodeURIComponent(second)}&named-graph-uri=${encodeURIComponent(foreign)}`,
        { token },
      );
      expect(res.body.results.bindings.map((b: Json) => b.g.value)).to.deep.equal([second]);
    });
  });

  describe('a caller who may see every data graph, then not every one', () => {
    let fresh: TestNode;
    before(async () => {
      fresh = await TestNode.start();
    });
    after(async () => {
      await fresh.stop();
    });

    it("sees exactly its graphs and none of the node's own, before and after another forwarder publishes", async () => {
      const c = consignment();
      expect((await fresh.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
      expect(
        (await fresh.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(c)))).body.status,
      ).to.equal('completed');
      expect(
        (await fresh.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['GB'] })).status,
      ).to.equal(201);
      const everything = await graphs('border', undefined, fresh);
      expect(everything).to.have.length(2);
      const probes = [
        'SELECT * WHERE { ?s <https://w3id.org/supply-chain-dataspace/ns#owner> ?o }',
        'SELECT * WHERE { ?s <http://www.w3.org/ns/odrl/2/assigner> ?o }',
        'SELECT * WHERE { GRAPH ?g { ?s <https://w3id.org/supply-chain-dataspace/ns#kind> ?o } }',
      ];
      for (const text of probes)
        expect((await query('border', text, undefined, 'body', fresh)).body.results.bindings, text).to.deep.equal([]);

      const x = consignment();
      expect((await fresh.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, x))).body.status).to.equal('completed');
      expect(await graphs('border', undefined, fresh)).to.deep.equal(everything);
      const all = await query('border', ALL_QUADS, 'text/csv', 'body', fresh);
      expect(all.text).to.include(c.globalId);
      expect(all.text).to.not.include(x.globalId);
      expect((await query('border', 'SELECT * WHERE { ?s ?p ?o }', 'text/csv', 'body', fresh)).text).to.not.include(x.globalId);
      for (const text of probes)
        expect((await query('border', text, undefined, 'body', fresh)).body.results.bindings, text).to.deep.equal([]);
    });
  });

  describe('refusals', () => {
    it('refuses SPARQL Update in every form with 403 and changes nothing', async () => {
      const update = `INSERT DATA { GRAPH <urn:x:g> { <${mine.globalId}> <urn:x:p> "injected" } }`;
      const token = await node.login('forwarder');
      const answers = [
        await node.request('POST', SPARQL, {
          token,
          rawBody: new URLSearchParams({ update }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        await node.request('POST', SPARQL, { token, rawBody: update, headers: { 'content-type': 'application/sparql-update' } }),
        await query('forwarder', update),
        await query('forwarder', update, undefined, 'get'),
        await node.request('GET', `${SPARQL}?update=${encodeURIComponent(update)}`, { token }),
        await query('forwarder', 'DROP ALL'),
      ];
      for (const res of answers) {
        expect(res.status, res.text).to.equal(403);
        expect(res.body).to.have.keys('name', 'message');
      }
      expect((await query('forwarder', 'ASK { GRAPH ?g { ?s ?p "injected" } }')).body.boolean).to.equal(false);
      // Asked of the store itself, past every policy: nothing anywhere.
      expect(await node.node.store.ask('ASK { { ?s ?p "injected" } UNION { GRAPH ?g { ?s ?p "injected" } } }')).to.equal(false);
    });

    it('refuses SERVICE with 403', async () => {
      const res = await query('forwarder', 'SELECT * WHERE { SERVICE <http://127.0.0.1:1/sparql> { ?s ?p ?o } }');
      expect(res.status).to.equal(403);
      expect(res.body.message).to.match(/SERVICE/);
    });
  });

  describe('limits', () => {
    let limited: TestNode;
    before(async () => {
      limited = await TestNode.start({ DATASPACE_SPARQL_MAX_RESULTS: '5', DATASPACE_SPARQL_TIMEOUT_MS: '300' });
      const c = consignment();
      expect((await limited.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    });
    after(async () => {
      await limited.stop();
    });

    it('refuses an answer over the result-size limit with 422 and a clear message, and answers within it', async () => {
      for (const [text, accept] of [
        [ALL_QUADS, 'application/sparql-results+json'],
        [ALL_QUADS, 'text/csv'],
        [ALL_QUADS, 'application/sparql-results+xml'],
        ['CONSTRUCT WHERE { ?s ?p ?o }', 'text/turtle'],
      ] as const) {
        const res = await query('forwarder', text, accept, 'body', limited);
        expect(res.status, `${text} ${accept}`).to.equal(422);
        expect(res.body.name).to.equal('ResultTooLarge');
        expect(res.body.message).to.match(/5/);
      }
      const within = await query('forwarder', `${ALL_QUADS} LIMIT 5`, 'text/tab-separated-values', 'body', limited);
      expect(within.status).to.equal(200);
      expect(within.text.trim().split('\n')).to.have.length(6);
    });

    it('stops a query past the time limit with 503, keeps the node answering meanwhile, and runs the next query', async () => {
      const heavy = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }';
      const started = Date.now();
      const pending = query('forwarder', heavy, undefined, 'body', limited);
      // The node itself stays responsive while the engine thread works.
      const list = await limited.as('forwarder', 'GET', '/supply-chain/data-space/consignments');
      expect(list.status).to.equal(200);
      expect(Date.now() - started).to.be.below(250);
      const res = await pending;
      expect(res.status).to.equal(503);
      expect(res.body.name).to.equal('QueryTimeout');
      expect(res.body.message).to.match(/300 ms/);
      expect(Date.now() - started).to.be.below(5000);
      const after = await query('forwarder', 'ASK { ?s ?p ?o }', undefined, 'body', limited);
      expect(after.status).to.equal(200);
      expect(after.body.boolean).to.equal(true);
    });

    it('sees what was published after the engine thread was restarted', async () => {
      const c = consignment();
      expect((await limited.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
      const res = await query('forwarder', `ASK { <${c.globalId}> ?p ?o }`, undefined, 'body', limited);
      expect(res.body.boolean).to.equal(true);
    });

    it('refuses a query text over the size limit with 413', async () => {
      const res = await query('forwarder', `SELECT * WHERE { ?s ?p "${'x'.repeat(70 * 1024)}" }`);
      expect(res.status).to.equal(413);
    });
  });
});
