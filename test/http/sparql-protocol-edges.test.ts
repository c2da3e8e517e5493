import { expect } from 'chai';
import n3 from 'n3';
import oxigraph from 'oxigraph';
import { TestNode, USERS, type HttpAnswer, type UserName } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';

const SPARQL = '/supply-chain/data-space/sparql';
const VOID = 'http://rdfs.org/ns/void#';
type Json = Record<string, any>;

/** SPARQL 1.1 Protocol edges that real clients (rdflib, roqet, YASGUI, Comunica) run into. */
describe('SPARQL protocol edges', () => {
  let node: TestNode;
  let c: Json;

  const ask = async (user: UserName, text: string, accept: string, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
    node.request('POST', SPARQL, {
      token: await node.login(user),
      rawBody: text,
      headers: { accept, 'content-type': 'application/sparql-query', ...headers },
    });

  before(async () => {
    node = await TestNode.start({ DATASPACE_SPARQL_MAX_QUERY_BYTES: '2048' });
    c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)))).body.status,
    ).to.equal('completed');
    expect((await node.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, consignment()))).body.status).to.equal(
      'completed',
    );
  });
  after(async () => {
    await node.stop();
  });

  it('answers HEAD like GET without a body', async () => {
    const token = await node.login('forwarder');
    const url = `${SPARQL}?query=${encodeURIComponent('SELECT * WHERE { ?s ?p ?o } LIMIT 1')}`;
    const head = await node.request('HEAD', url, { token, headers: { accept: 'application/sparql-results+json' } });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.match(/^application\/sparql-results\+json/);
    expect(head.text).to.equal('');
    expect((await node.request('HEAD', SPARQL)).status).to.equal(200);
  });

  it('answers ASK in CSV and TSV as a one-row table (_askResult), not a bare boolean', async () => {
    const yes = `ASK { <${c.globalId}> ?p ?o }`;
    const no = 'ASK { ?s ?p "nothing has this value" }';
    expect((await ask('forwarder', yes, 'text/csv')).text).to.equal('_askResult\r\ntrue\r\n');
    expect((await ask('forwarder', no, 'text/csv')).text).to.equal('_askResult\r\nfalse\r\n');
    expect((await ask('forwarder', yes, 'text/tab-separated-values')).text).to.equal('?_askResult\ntrue\n');
    expect((await ask('otherForwarder', yes, 'text/tab-separated-values')).text).to.equal('?_askResult\nfalse\n');
  });

  it('answers ASK as a boolean document whenever the client also accepts one, even below CSV or TSV', async () => {
    const no = 'ASK { ?s ?p "nothing has this value" }';
    for (const [accept, type] of [
      ['text/csv, application/sparql-results+json;q=0.5', 'application/sparql-results+json'],
      ['text/tab-separated-values, application/sparql-results+xml;q=0.1', 'application/sparql-results+xml'],
      ['text/csv, */*;q=0.1', 'application/sparql-results+json'],
      ['text/tab-separated-values, application/json;q=0.2', 'application/json'],
    ] as const) {
      const res = await ask('forwarder', no, accept);
      expect(res.headers.get('content-type'), accept).to.match(new RegExp(`^${type.replace(/[+]/g, '\\+')}`));
      expect(res.text, accept).to.match(/false/);
      expect(res.text, accept).to.not.match(/_askResult/);
    }
  });

  it('answers CONSTRUCT and DESCRIBE in an RDF syntax the client listed, else RDF/XML; aliases and parameters are understood', async () => {
    const construct = `CONSTRUCT { <${c.globalId}> ?p ?o } WHERE { <${c.globalId}> ?p ?o }`;
    // rdflib's SPARQLStore in json, csv and tsv mode sends one results format for every query.
    for (const accept of [
      'application/sparql-results+json',
      'text/csv',
      'application/sparql-results+xml, text/tab-separated-values;q=0.5',
    ]) {
      const res = await ask('forwarder', construct, accept);
      expect(res.status, accept).to.equal(200);
      expect(res.headers.get('content-type'), accept).to.match(/^application\/rdf\+xml/);
      const store = new oxigraph.Store();
      store.load(res.text, { format: 'application/rdf+xml', base_iri: 'http://example.org/' });
      expect(store.size, accept).to.be.greaterThan(3);
    }
    // rdflib's xml mode lists RDF/XML after the results format; an RDF syntax listed at any quality wins.
    for (const [accept, type] of [
      ['application/sparql-results+xml, application/rdf+xml', 'application/rdf+xml'],
      ['application/sparql-results+json, application/n-triples;q=0.1', 'application/n-triples'],
    ] as const) {
      expect((await ask('forwarder', construct, accept)).headers.get('content-type'), accept).to.match(
        new RegExp(`^${type.replace(/[+]/g, '\\+')}`),
      );
    }
    const describe = await ask('forwarder', `DESCRIBE <${c.globalId}>`, 'application/sparql-results+json');
    expect(describe.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const nq = await ask('forwarder', construct, 'text/x-nquads');
    expect(nq.headers.get('content-type')).to.match(/^application\/n-quads/);
    const turtle = await ask('forwarder', construct, 'text/turtle; charset=utf-8');
    expect(turtle.headers.get('content-type')).to.match(/^text\/turtle/);
    expect((await ask('forwarder', construct, 'text/html')).status).to.equal(406);
  });

  it('allows cross-origin Bearer clients (CORS) without credentials, and ignores cookies sent from another origin', async () => {
    const preflight = await node.request('OPTIONS', SPARQL, {
      headers: {
        origin: 'https://yasgui.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
    expect(preflight.headers.get('access-control-allow-headers')).to.match(/authorization/i);
    expect(preflight.headers.get('access-control-allow-credentials')).to.equal(null);
    expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET,HEAD,POST,PUT,DELETE');
    expect(preflight.headers.get('access-control-max-age')).to.equal('600');
    expect(preflight.headers.get('vary')).to.match(/Origin/);
    const withToken = await ask('forwarder', 'ASK { ?s ?p ?o }', 'application/sparql-results+json', { origin: 'https://yasgui.example' });
    expect(withToken.status).to.equal(200);
    expect(withToken.headers.get('access-control-allow-origin')).to.equal('*');
    expect(withToken.headers.get('access-control-expose-headers')).to.equal('ETag,Link,Location,Content-Type,Retry-After,Vary');
    // The node's own origin gets no CORS headers.
    expect(
      (await ask('forwarder', 'ASK { ?s ?p ?o }', 'application/sparql-results+json', { origin: node.url })).headers.get(
        'access-control-allow-origin',
      ),
    ).to.equal(null);
    const cookie = `access_token=${await node.login('forwarder')}`;
    const url = `${SPARQL}?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`;
    expect((await node.request('GET', url, { headers: { cookie } })).status).to.equal(200);
    expect((await node.request('GET', url, { headers: { cookie, origin: 'https://evil.example' } })).status).to.equal(401);
  });

  it('describes itself to anyone, with VoID counts only of what the caller may read', async () => {
    const triplesOf = (text: string) => new n3.Parser().parse(text);
    const count = (quads: n3.Quad[], p: string) => quads.find((q) => q.predicate.value === p)?.object.value;
    const anonymous = await node.request('GET', SPARQL, { headers: { accept: 'text/turtle' } });
    expect(anonymous.status).to.equal(200);
    const open = triplesOf(anonymous.text);
    expect(open.some((q) => q.object.value === `${VOID}Dataset`)).to.equal(true);
    expect(count(open, `${VOID}triples`)).to.equal(undefined);
    const forwarder = triplesOf(
      (await node.request('GET', SPARQL, { token: await node.login('forwarder'), headers: { accept: 'text/turtle' } })).text,
    );
    const other = triplesOf(
      (await node.request('GET', SPARQL, { token: await node.login('otherForwarder'), headers: { accept: 'text/turtle' } })).text,
    );
    const border = triplesOf(
      (await node.request('GET', SPARQL, { token: await node.login('border'), headers: { accept: 'text/turtle' } })).text,
    );
    const mine = await ask('forwarder', 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }', 'application/sparql-results+json');
    expect(count(forwarder, `${VOID}triples`)).to.equal(mine.body.results.bindings[0].n.value);
    expect(count(other, `${VOID}triples`)).not.to.equal(count(forwarder, `${VOID}triples`));
    expect(count(border, `${VOID}triples`)).to.equal('0');
    expect((await node.request('GET', SPARQL, { headers: { authorization: 'Bearer nonsense' } })).status).to.equal(401);
  });

  it('names the query-size limit for a long query, whatever way it is sent', async () => {
    const long = `SELECT * WHERE { ?s ?p "${'x'.repeat(70 * 1024)}" }`;
    const token = await node.login('forwarder');
    for (const res of [
      await ask('forwarder', long, 'application/sparql-results+json'),
      await node.request('POST', SPARQL, {
        token,
        rawBody: new URLSearchParams({ query: long }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      await ask('forwarder', `SELECT * WHERE { ?s ?p "${'x'.repeat(2100)}" }`, 'application/sparql-results+json'),
    ]) {
      expect(res.status).to.equal(413);
      expect(res.body.message).to.match(/query-size limit of 2048 bytes/);
    }
  });
});
