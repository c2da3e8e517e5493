import { expect } from 'chai';
import n3 from 'n3';
import jsonld from 'jsonld';
import oxigraph from 'oxigraph';
import { TestNode, USERS, type HttpAnswer, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const BASE = '/supply-chain/data-space';
const SPARQL = `${BASE}/sparql`;
const EXPANDED = 'http://www.w3.org/ns/json-ld#expanded';
const path = (id: string) => `${BASE}/consignments/${encodeURIComponent(id)}`;

type Json = Record<string, any>;

/**
 * Linked data as third-party RDF clients see it: every export syntax parsed by a real parser
 * (N3.js, jsonld.js, Oxigraph's RDF/XML reader), one ETag per unchanged resource, and the public
 * links that join events and documents to their consignment in SPARQL.
 */
describe('linked data: exports, entity tags and consignment links', () => {
  let node: TestNode;
  let c: Json;

  const get = async (user: UserName, url: string, accept?: string, extra: Record<string, string> = {}): Promise<HttpAnswer> =>
    node.request('GET', url, { token: await node.login(user), headers: { ...(accept ? { accept } : {}), ...extra } });
  /** A client offline but for the node: contexts come from the node's /contexts/, anything else fails. */
  const nodeLoader = async (url: string) => {
    if (!url.startsWith(`${node.url}/contexts/`)) throw new Error(`the answer needed ${url}, which is not the node's`);
    const res = await fetch(url);
    expect(res.status, url).to.equal(200);
    return { contextUrl: null, documentUrl: url, document: await res.json() };
  };
  const canonical = (quads: readonly n3.Quad[]) =>
    new Set(
      quads.map(
        (q) =>
          `${q.subject.termType === 'BlankNode' ? '_' : q.subject.value} ${q.predicate.value} ${q.object.termType === 'BlankNode' ? '_' : q.object.value}`,
      ),
    );

  before(async () => {
    node = await TestNode.start();
    c = consignment();
    for (const a of [
      activity('Create', USERS.forwarder.org, c),
      activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)),
      activity('Add', USERS.forwarder.org, document('INV-LD'), target(c)),
    ])
      expect((await node.publish('forwarder', a)).body.status).to.equal('completed');
    expect((await node.as('forwarder', 'POST', `${BASE}/policies`, { role: 'borderAgency', countries: ['GB'] })).status).to.equal(201);
  });
  after(async () => {
    await node.stop();
  });

  it('answers every syntax under its aliases and parameters, each parsed by a real parser to the same triples', async () => {
    const reference = await get('forwarder', path(c.globalId), 'application/n-quads');
    const triples = canonical(new n3.Parser({ format: 'N-Quads' }).parse(reference.text));
    expect(triples.size).to.be.greaterThan(10);
    const rows: [string, RegExp, (text: string) => Promise<n3.Quad[]>][] = [
      ['text/turtle; charset=utf-8', /^text\/turtle/, async (t) => new n3.Parser({ format: 'Turtle' }).parse(t)],
      ['application/x-trig', /^application\/trig/, async (t) => new n3.Parser({ format: 'TriG' }).parse(t)],
      ['application/n-triples', /^application\/n-triples/, async (t) => new n3.Parser({ format: 'N-Triples' }).parse(t)],
      ['text/x-nquads', /^application\/n-quads/, async (t) => new n3.Parser({ format: 'N-Quads' }).parse(t)],
      [
        'application/rdf+xml',
        /^application\/rdf\+xml/,
        async (t) => oxigraph.parse(t, { format: 'application/rdf+xml' }) as unknown as n3.Quad[],
      ],
      [
        'application/ld+json',
        /^application\/ld\+json(; charset=utf-8)?$/,
        async (t) =>
          new n3.Parser({ format: 'N-Quads' }).parse(
            (await jsonld.toRDF(JSON.parse(t), {
              format: 'application/n-quads',
              documentLoader: nodeLoader as never,
            })) as unknown as string,
          ),
      ],
      [
        `application/ld+json; profile="${EXPANDED}"`,
        /^application\/ld\+json; profile=/,
        async (t) =>
          new n3.Parser({ format: 'N-Quads' }).parse(
            (await jsonld.toRDF(JSON.parse(t), { format: 'application/n-quads' })) as unknown as string,
          ),
      ],
    ];
    for (const [accept, type, parse] of rows) {
      const res = await get('forwarder', path(c.globalId), accept);
      expect(res.status, accept).to.equal(200);
      expect(res.headers.get('content-type'), accept).to.match(type);
      expect(canonical(await parse(res.text)), accept).to.deep.equal(triples);
    }
  });

  it('writes Turtle and TriG with prefixes and compacted JSON-LD against the D23B context', async () => {
    const turtle = (await get('forwarder', path(c.globalId), 'text/turtle')).text;
    expect(turtle).to.match(/@prefix unece: <https:\/\/vocabulary\.uncefact\.org\/>/);
    expect(turtle).to.include('unece:globalId');
    expect((await get('forwarder', path(c.globalId), 'application/trig')).text).to.match(/@prefix svc: /);
    const compacted = JSON.parse((await get('forwarder', path(c.globalId), 'application/ld+json')).text);
    // The node's own D23B context (the release and the service terms), which it serves at that URL.
    expect(compacted['@context']).to.equal(`${node.url}/contexts/unece-context-D23B.jsonld`);
    expect(JSON.stringify(compacted)).to.include('"globalId"');
    const expanded = JSON.parse((await get('forwarder', path(c.globalId), `application/ld+json;profile="${EXPANDED}"`)).text);
    expect(Array.isArray(expanded)).to.equal(true);
    expect(JSON.stringify(expanded)).to.include('https://vocabulary.uncefact.org/globalId');
  });

  it('answers 406 naming every offered type when nothing matches, never JSON in disguise', async () => {
    for (const accept of ['text/html', 'application/ld+json; profile="http://example.org/p"', 'image/png']) {
      const res = await get('forwarder', path(c.globalId), accept);
      expect(res.status, accept).to.equal(406);
      expect(res.body.name).to.equal('NotAcceptable');
      for (const type of [
        'application/json',
        'text/turtle',
        'application/trig',
        'application/n-triples',
        'application/n-quads',
        'application/rdf+xml',
        'application/ld+json',
      ])
        expect(res.body.message).to.include(type);
    }
  });

  it('gives an unchanged export one ETag (blank nodes labelled canonically), 304 on If-None-Match, and a new one after a change', async () => {
    for (const accept of ['text/turtle', 'application/n-quads', 'application/ld+json', 'application/rdf+xml']) {
      const first = await get('forwarder', path(c.globalId), accept);
      const second = await get('forwarder', path(c.globalId), accept);
      expect(first.text, accept).to.equal(second.text);
      const etag = first.headers.get('etag')!;
      expect(etag, accept).to.match(/^"[^"]+"$/);
      expect(second.headers.get('etag')).to.equal(etag);
      // fetch() adds Cache-Control: no-cache to conditional requests; the condition is answered all the same.
      const cached = await get('forwarder', path(c.globalId), accept, { 'if-none-match': etag });
      expect(cached.status, accept).to.equal(304);
      expect(cached.text).to.equal('');
    }
    const turtle = await get('forwarder', path(c.globalId), 'text/turtle');
    expect(turtle.text).to.match(/_:c14n\d+/);
    const nquadsTag = (await get('forwarder', path(c.globalId), 'application/n-quads')).headers.get('etag');
    expect(turtle.headers.get('etag')).not.to.equal(nquadsTag);
    const other = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, other))).body.status).to.equal('completed');
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(c)))).body.status,
    ).to.equal('completed');
    const changed = await get('forwarder', path(c.globalId), 'text/turtle', { 'if-none-match': turtle.headers.get('etag')! });
    expect(changed.status).to.equal(200);
    expect(changed.headers.get('etag')).not.to.equal(turtle.headers.get('etag'));
  });

  it('links events and documents to their consignment in graphs a reader may see, so SPARQL joins them; policies still filter', async () => {
    const query = `PREFIX unece: <https://vocabulary.uncefact.org/>
PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
SELECT ?kind ?x WHERE {
  ?c unece:globalId "${c.globalId}" .
  { ?c svc:event ?x . BIND("event" AS ?kind) } UNION { ?c unece:associatedDocument ?x . BIND("document" AS ?kind) }
}`;
    const ask = async (user: UserName) => {
      const res = await node.request('POST', SPARQL, {
        token: await node.login(user),
        rawBody: query,
        headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
      });
      expect(res.status, res.text).to.equal(200);
      return res.body.results.bindings.map((b: Json) => `${b.kind.value}`).sort();
    };
    expect(await ask('forwarder')).to.deep.equal(['document', 'event', 'event']);
    expect(await ask('border')).to.deep.equal(['document', 'event', 'event']);
    expect(await ask('otherForwarder')).to.deep.equal([]);
    // The link sits in the event's own graph: the event's read view is unchanged by it.
    const view = (await get('forwarder', path(c.globalId))).body;
    for (const e of view.events) expect(Object.keys(e).some((k) => k.includes('consignment') || k === 'svc:event')).to.equal(false);
  });

  it("gives /validate's data graph as N-Quads and its report as an sh:ValidationReport in Turtle", async () => {
    const token = await node.login('forwarder');
    const bad = consignment({ globalId: 'not-a-urn' });
    const data = await node.request('POST', `${BASE}/validate`, { body: bad, token, headers: { accept: 'text/x-nquads' } });
    expect(data.status).to.equal(200);
    expect(data.headers.get('content-type')).to.match(/^application\/n-quads/);
    const quads = new n3.Parser({ format: 'N-Quads' }).parse(data.text);
    expect(quads.some((q) => q.predicate.value === 'https://vocabulary.uncefact.org/globalId' && q.object.value === 'not-a-urn')).to.equal(
      true,
    );
    const report = await node.request('POST', `${BASE}/validate`, { body: bad, token, headers: { accept: 'text/turtle' } });
    const triples = new n3.Parser().parse(report.text);
    const sh = 'http://www.w3.org/ns/shacl#';
    expect(triples.some((q) => q.object.value === `${sh}ValidationReport`)).to.equal(true);
    expect(triples.find((q) => q.predicate.value === `${sh}conforms`)?.object.value).to.equal('false');
    expect((await node.request('POST', `${BASE}/validate`, { body: bad, token, headers: { accept: 'image/png' } })).status).to.equal(406);
  });
});
