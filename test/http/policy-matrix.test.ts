import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { TestNode, USERS, type HttpAnswer, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';

/**
 * The policy matrix: organisation × policy × endpoint. Each row names a reader, the situation and the
 * consignments it must see; every read endpoint and the SPARQL endpoint must show exactly those, and no
 * identifier of any other consignment may appear anywhere in a response.
 */

type Name = 'C1' | 'C2' | 'C3' | 'X1';
const NAMES: Name[] = ['C1', 'C2', 'C3', 'X1'];

interface Published {
  globalId: string;
  identifier: string;
  documentId: string;
  marker: string;
}

type Situation = 'policies in place' | 'border agency policy deleted';

interface Row {
  reader: UserName;
  situation: Situation;
  why: string;
  sees: Name[];
}

// C1, C3: forwarder, Felixstowe → Rotterdam. C2: forwarder, Hamburg → Antwerp. X1: other forwarder, Felixstowe → Rotterdam.
// Policies: forwarder → border agencies of GB; → operators at GBFXT; → operators at NLRTM for C3 only.
// other forwarder → border agencies of FR.
const MATRIX: Row[] = [
  { reader: 'forwarder', situation: 'policies in place', why: 'owner reads its own', sees: ['C1', 'C2', 'C3'] },
  { reader: 'otherForwarder', situation: 'policies in place', why: 'another forwarder reads only its own', sees: ['X1'] },
  { reader: 'border', situation: 'policies in place', why: 'border agency with a covering policy', sees: ['C1', 'C2', 'C3'] },
  { reader: 'douane', situation: 'policies in place', why: 'border agency of another country', sees: ['X1'] },
  { reader: 'port', situation: 'policies in place', why: 'location operator on the route (not C2, off the route)', sees: ['C1', 'C3'] },
  { reader: 'rotterdam', situation: 'policies in place', why: 'location operator under a policy narrowed to C3', sees: ['C3'] },
  { reader: 'border', situation: 'border agency policy deleted', why: 'border agency after the policy is deleted', sees: [] },
  {
    reader: 'port',
    situation: 'border agency policy deleted',
    why: "location operator unaffected by another policy's deletion",
    sees: ['C1', 'C3'],
  },
  { reader: 'forwarder', situation: 'border agency policy deleted', why: 'owner unaffected', sees: ['C1', 'C2', 'C3'] },
];

const BASE = '/supply-chain/data-space';
const enc = encodeURIComponent;

/** Point reads of one consignment: each answers 200 when visible and the 404 of a missing id otherwise. */
const POINT_READS: { endpoint: string; path: (c: Published) => string; accept?: string }[] = [
  { endpoint: 'GET consignment by globalId', path: (c) => `${BASE}/consignments/${enc(c.globalId)}` },
  { endpoint: 'GET consignment by identifier', path: (c) => `${BASE}/consignments/${enc(c.identifier)}` },
  { endpoint: 'GET consignment scope=shared', path: (c) => `${BASE}/consignments/${enc(c.globalId)}?scope=shared` },
  { endpoint: 'GET consignment as Turtle', path: (c) => `${BASE}/consignments/${enc(c.globalId)}`, accept: 'text/turtle' },
  { endpoint: 'GET consignment as N-Quads', path: (c) => `${BASE}/consignments/${enc(c.globalId)}`, accept: 'application/n-quads' },
  { endpoint: 'GET consignment documents', path: (c) => `${BASE}/consignments/${enc(c.globalId)}/documents` },
  {
    endpoint: 'GET one document',
    path: (c) => `${BASE}/consignments/${enc(c.globalId)}/documents/${enc(c.documentId)}`,
    accept: 'application/json',
  },
  { endpoint: 'GET documents?consignmentId', path: (c) => `${BASE}/documents?consignmentId=${enc(c.globalId)}` },
];

/** SPARQL queries whose answers must name every visible consignment and no other. */
const SPARQL_READS: { endpoint: string; query: string; accept: string }[] = [
  {
    endpoint: 'SPARQL SELECT over GRAPH ?g',
    query: 'SELECT ?g ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o } }',
    accept: 'application/sparql-results+json',
  },
  { endpoint: 'SPARQL SELECT over the default graph', query: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }', accept: 'text/csv' },
  {
    endpoint: 'SPARQL CONSTRUCT of the named graphs',
    query: 'CONSTRUCT { ?s ?p ?o } WHERE { GRAPH ?g { ?s ?p ?o } }',
    accept: 'application/n-triples',
  },
  { endpoint: 'SPARQL DESCRIBE of every subject', query: 'DESCRIBE ?s WHERE { ?s ?p ?o }', accept: 'text/turtle' },
];

describe('policy matrix: organisation × policy × endpoint', () => {
  let node: TestNode;
  const published = {} as Record<Name, Published>;
  let borderPolicy: string;
  let missing404: Record<string, { status: number; text: string }>;

  async function publish(name: Name, user: UserName, route: { from: string; to: string }): Promise<void> {
    const marker = `marker-${name}-${randomUUID()}`;
    const c = consignment({
      summaryDescription: marker,
      loadingBaseportLocation: { type: 'LogisticsLocation', name: route.from, UNLocode: route.from },
      unloadingBaseportLocation: { type: 'LogisticsLocation', name: route.to, UNLocode: route.to },
    });
    const documentId = `DOC-${name}-${randomUUID().slice(0, 8)}`;
    const org = USERS[user].org;
    for (const a of [
      activity('Create', org, c),
      activity('Add', org, document(documentId), target(c)),
      activity('Add', org, event('svc:atLocationOfExit'), target(c)),
    ]) {
      const res = await node.publish(user, a);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status, JSON.stringify(res.body)).to.equal('completed');
    }
    published[name] = { globalId: c.globalId, identifier: c.identifier, documentId, marker };
  }

  async function policy(user: UserName, body: unknown): Promise<string> {
    const res = await node.as(user, 'POST', `${BASE}/policies`, body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id;
  }

  const token = (user: UserName) => node.login(user);

  async function get(user: UserName, path: string, accept?: string): Promise<HttpAnswer> {
    return node.request('GET', path, { token: await token(user), headers: accept ? { accept } : {} });
  }

  async function sparql(user: UserName, query: string, accept: string): Promise<HttpAnswer> {
    return node.request('POST', `${BASE}/sparql`, {
      token: await token(user),
      rawBody: query,
      headers: { 'content-type': 'application/sparql-query', accept },
    });
  }

  /** Every page of a list, following rel="next". */
  async function allPages(user: UserName, path: string): Promise<{ items: any[]; text: string }> {
    const items: any[] = [];
    let text = '';
    let next: string | undefined = path;
    while (next) {
      const res = await get(user, next);
      expect(res.status).to.equal(200);
      items.push(...res.body);
      text += res.text;
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    return { items, text };
  }

  const identifiersOf = (c: Published) => [c.globalId, c.identifier, c.documentId, c.marker];

  function expectNoTrace(text: string, hidden: Name[], where: string): void {
    for (const name of hidden) {
      for (const id of identifiersOf(published[name])) expect(text, `${where} leaks ${name} (${id})`).to.not.include(id);
    }
  }

  before(async () => {
    node = await TestNode.start();
    await publish('C1', 'forwarder', { from: 'GBFXT', to: 'NLRTM' });
    await publish('C2', 'forwarder', { from: 'DEHAM', to: 'BEANR' });
    await publish('C3', 'forwarder', { from: 'GBFXT', to: 'NLRTM' });
    await publish('X1', 'otherForwarder', { from: 'GBFXT', to: 'NLRTM' });
    borderPolicy = await policy('forwarder', { role: 'borderAgency', countries: ['GB'] });
    await policy('forwarder', { role: 'locationOperator', locations: ['GBFXT'] });
    await policy('forwarder', { role: 'locationOperator', locations: ['NLRTM'], consignments: [published.C3.globalId] });
    await policy('otherForwarder', { role: 'borderAgency', countries: ['FR'] });
    // The answer for an id that does not exist, per endpoint, to compare uncovered answers with.
    const ghost: Published = { globalId: newGlobalId(), identifier: `REF-${randomUUID()}`, documentId: 'DOC-none', marker: '' };
    missing404 = {};
    for (const read of POINT_READS) {
      const res = await get('border', read.path(ghost), read.accept);
      missing404[read.endpoint] = {
        status: res.status,
        text: res.text.split(ghost.globalId).join('{id}').split(ghost.identifier).join('{id}'),
      };
    }
  });
  after(async () => {
    await node.stop();
  });

  for (const situation of ['policies in place', 'border agency policy deleted'] as Situation[]) {
    describe(situation, () => {
      if (situation === 'border agency policy deleted') {
        before(async () => {
          const res = await node.as('forwarder', 'DELETE', `${BASE}/policies/${enc(borderPolicy)}`);
          expect(res.status).to.equal(204);
        });
      }

      for (const row of MATRIX.filter((r) => r.situation === situation)) {
        describe(`${row.reader}: ${row.why}`, () => {
          const hidden = () => NAMES.filter((n) => !row.sees.includes(n));

          for (const name of NAMES) {
            for (const read of POINT_READS) {
              const visible = row.sees.includes(name);
              it(`${read.endpoint} of ${name} → ${visible ? 200 : 404}`, async () => {
                const c = published[name];
                const res = await get(row.reader, read.path(c), read.accept);
                if (visible) {
                  expect(res.status, res.text).to.equal(200);
                  if (read.accept) expect(res.text).to.include(c.globalId);
                  expectNoTrace(res.text, hidden(), read.endpoint);
                } else {
                  // Identical to the answer for an id that does not exist; the id asked for is echoed, nothing else.
                  const normalised = res.text.split(c.globalId).join('{id}').split(c.identifier).join('{id}');
                  expect({ status: res.status, text: normalised }).to.deep.equal(missing404[read.endpoint]);
                  expect(res.status).to.equal(404);
                  expectNoTrace(normalised, hidden(), read.endpoint);
                }
              });
            }
          }

          it('GET consignments lists exactly the visible ones, on every page', async () => {
            const { items, text } = await allPages(row.reader, `${BASE}/consignments?limit=1`);
            expect(items.map((i) => i.globalId).sort()).to.deep.equal(row.sees.map((n) => published[n].globalId).sort());
            expectNoTrace(text, hidden(), 'the consignment list');
          });

          it('GET documents lists the documents of exactly the visible ones, on every page', async () => {
            const { items, text } = await allPages(row.reader, `${BASE}/documents?limit=1`);
            expect(items.map((i) => i.documentId).sort()).to.deep.equal(row.sees.map((n) => published[n].documentId).sort());
            expectNoTrace(text, hidden(), 'the document list');
          });

          for (const read of SPARQL_READS) {
            it(`${read.endpoint} names exactly the visible ones`, async () => {
              const res = await sparql(row.reader, read.query, read.accept);
              expect(res.status, res.text).to.equal(200);
              for (const name of row.sees) expect(res.text, `${name} missing`).to.include(published[name].globalId);
              expectNoTrace(res.text, hidden(), read.endpoint);
            });
          }

          it('SPARQL ASK answers true for a visible consignment only', async () => {
            for (const name of NAMES) {
              const res = await sparql(
                row.reader,
                `ASK { GRAPH ?g { <${published[name].globalId}> ?p ?o } }`,
                'application/sparql-results+json',
              );
              expect(res.status).to.equal(200);
              expect(res.body.boolean, name).to.equal(row.sees.includes(name));
            }
          });
        });
      }
    });
  }
});
