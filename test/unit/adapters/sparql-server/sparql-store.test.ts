import { expect } from 'chai';
import type { SparqlAnswer } from '../../../../src/adapters/sparql-server/sparql-http.js';
import { SKOLEM_PREFIX, SparqlStoreError, inNodeForms, withDataset } from '../../../../src/adapters/sparql-server/sparql-server-text.js';
import { SparqlStore } from '../../../../src/adapters/sparql-server/sparql-store.js';
import type { ServerProfile } from '../../../../src/adapters/sparql-server/server-profile.js';
import { VIRTUOSO } from '../../../../src/adapters/sparql-server/virtuoso.js';
import { nth, only } from '../../../helpers/present.js';

interface Sent {
  url: string;
  form: URLSearchParams;
  headers: Record<string, string>;
}

const json = (value: unknown): SparqlAnswer => ({
  status: 200,
  contentType: 'application/sparql-results+json',
  body: JSON.stringify(value),
});
const text = (body: string, status = 200): SparqlAnswer => ({ status, contentType: 'text/plain', body });

/** A SparqlStore whose requests are recorded and answered by `answer` (which may hold them). */
function recording(answer: (sent: Sent) => SparqlAnswer | Promise<SparqlAnswer> = () => json({ boolean: true }), profile?: ServerProfile) {
  const sent: Sent[] = [];
  let closed = false;
  const http = {
    post: async (url: string, headers: Record<string, string>, body: string) => {
      const s = { url, form: new URLSearchParams(body), headers };
      sent.push(s);
      return answer(s);
    },
    close: async () => {
      closed = true;
    },
  };
  const store = new SparqlStore(
    {
      queryUrl: 'http://127.0.0.1:1/query',
      updateUrl: 'http://127.0.0.1:1/update',
      user: 'node',
      password: 'pw',
      timeoutMs: 1000,
      profile,
    },
    http,
  );
  return { store, sent, closed: () => closed };
}

describe('store: SPARQL protocol adapter', () => {
  it('sends one change as one Update: operations in order, blank nodes skolemised per insert, Basic credentials', async () => {
    const { store, sent } = recording(() => text('ok'));
    await store.commit({
      ops: [
        { op: 'dropGraph', graph: 'urn:g:1' },
        { op: 'deleteMatching', subject: '<urn:s>', predicate: null, object: '"x"', graph: 'urn:g:meta' },
        { op: 'insert', nquads: '<urn:s> <urn:p> _:b0 <urn:g:1> .\n_:b0 <urn:q> "v" <urn:g:1> .\n' },
        { op: 'insert', nquads: '<urn:t> <urn:p> _:b0 <urn:g:1> .\n' },
      ],
    });
    expect(sent).to.have.length(1);
    expect(nth(sent, 0).url).to.equal('http://127.0.0.1:1/update');
    expect(nth(sent, 0).headers.authorization).to.equal(`Basic ${Buffer.from('node:pw').toString('base64')}`);
    const update = nth(sent, 0).form.get('update')!;
    const order = [
      'DROP SILENT GRAPH <urn:g:1>',
      'DELETE WHERE { GRAPH <urn:g:meta> { <urn:s> ?p "x" } }',
      'INSERT DATA',
      'INSERT DATA',
    ].map((t) => update.indexOf(t, 0));
    expect(order.every((i) => i >= 0)).to.equal(true);
    expect(update.indexOf('DROP')).to.be.below(update.indexOf('DELETE'));
    expect(update.indexOf('DELETE')).to.be.below(update.indexOf('INSERT'));
    expect(update).to.not.match(/_:/);
    const skolems = [...update.matchAll(new RegExp(`<${SKOLEM_PREFIX}([^>]+)>`, 'g'))].map((m) => m[1]);
    expect(skolems).to.have.length(3);
    expect(skolems[0]).to.equal(skolems[1]); // one blank node within one insert
    expect(skolems[2]).to.not.equal(skolems[0]); // _:b0 of another insert is another node
  });

  it('group-commits: changes committed while an Update is out go together in the next one, durable only once it is answered', async () => {
    const answers: (() => void)[] = [];
    // Updates wait for the test to answer them; queries answer at once.
    const { store, sent } = recording(async (s) => {
      if (!s.form.has('update')) return json({ results: { bindings: [] } });
      await new Promise<void>((ok) => answers.push(ok));
      return text('ok');
    });
    const updates = () => sent.filter((s) => s.form.has('update'));
    const insert = (n: number) => ({
      op: 'insert' as const,
      nquads: `<urn:s:${n}> <urn:p> _:b0 <urn:g:${n % 2}> .\n_:b0 <urn:q> "${n}" <urn:g:meta> .\n`,
    });
    const done: number[] = [];
    const first = await store.commit({ ops: [insert(1)] });
    void first.durable.then(() => done.push(1));
    expect(updates()).to.have.length(1);
    const later = await Promise.all([
      store.commit({ ops: [insert(2)] }),
      // A delete by subject and predicate keeps its place (a clear of a whole subject may go first: update-render.test.ts).
      store.commit({
        ops: [{ op: 'deleteMatching', subject: '<urn:s:1>', predicate: '<urn:p>', object: null, graph: 'urn:g:1' }, insert(3)],
      }),
      store.commit({ ops: [insert(4)] }),
    ]);
    later.forEach((c, i) => void c.durable.then(() => done.push(i + 2)));
    let read = false;
    const query = store.select('SELECT * WHERE { ?s ?p ?o }').then(() => {
      read = true;
    });
    await new Promise((ok) => setTimeout(ok, 20));
    // Nothing more is sent, nothing is durable and no read runs until the server answered.
    expect(updates()).to.have.length(1);
    expect(done).to.deep.equal([]);
    expect(read).to.equal(false);
    answers.shift()!();
    await new Promise((ok) => setTimeout(ok, 20));
    expect(done).to.deep.equal([1]);
    expect(updates()).to.have.length(2);
    const update = nth(updates(), 1).form.get('update')!;
    // Order kept: insert 2, the delete, then inserts 3 and 4 together in one INSERT DATA.
    expect(update.match(/INSERT DATA/g)).to.have.length(2);
    expect(update.indexOf('urn:s:2')).to.be.below(update.indexOf('DELETE'));
    expect(update.indexOf('DELETE')).to.be.below(update.indexOf('urn:s:3'));
    expect(update.lastIndexOf('INSERT DATA')).to.be.below(update.indexOf('urn:s:3'));
    expect(update.lastIndexOf('INSERT DATA')).to.be.below(update.indexOf('urn:s:4'));
    // Blank nodes of different changes stay different nodes after merging.
    const skolems = new Set([...update.matchAll(new RegExp(`<${SKOLEM_PREFIX}([^>]+)>`, 'g'))].map((m) => m[1]));
    expect(skolems.size).to.equal(3);
    expect(read).to.equal(false);
    answers.shift()!();
    await query;
    expect(done).to.deep.equal([1, 2, 3, 4]);
    expect(store.stats).to.deep.include({ changes: 4, requests: 2, maxBatch: 3 });
  });

  it('fails a batch the server refuses together with the changes queued behind it, and goes on with later ones', async () => {
    let refuse = true;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    const { store } = recording(async () => {
      await gate;
      return refuse ? text('no', 500) : text('ok');
    });
    const ins = { ops: [{ op: 'insert' as const, nquads: '<urn:s> <urn:p> "v" <urn:g> .\n' }] };
    const a = await store.commit(ins);
    const b = await store.commit(ins);
    const outcomes = Promise.all(
      [a.durable, b.durable].map((d) =>
        d.then(
          () => 'ok',
          (e: Error) => e.message,
        ),
      ),
    );
    release();
    const [ra, rb] = await outcomes;
    expect(ra).to.match(/answered 500/);
    expect(rb).to.match(/answered 500/);
    refuse = false;
    await (
      await store.commit(ins)
    ).durable;
  });

  it('keeps at most 8 requests open at once, reading each answer whole before the next starts', async () => {
    let open = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const { store } = recording(async () => {
      open++;
      most = Math.max(most, open);
      await new Promise<void>((ok) => releases.push(ok));
      open--;
      return json({ results: { bindings: [{ n: { type: 'literal', value: '1' } }] } });
    });
    let settled = false;
    const all = Promise.all(Array.from({ length: 20 }, () => store.select('SELECT ?n WHERE { ?s ?p ?n }'))).finally(() => {
      settled = true;
    });
    for (let round = 0; round < 50 && !settled; round++) {
      await new Promise((ok) => setTimeout(ok, 5));
      releases.splice(0).forEach((release) => release());
    }
    expect((await all).map((rows) => nth(rows, 0).get('n')!.value)).to.deep.equal(Array(20).fill('1'));
    expect(most).to.equal(8);
  });

  it('refuses to name a blank node in a delete, and an unparsable term, before sending anything', async () => {
    const { store, sent } = recording();
    await store.commit({ ops: [{ op: 'deleteMatching', subject: '_:b1', predicate: null, object: null, graph: 'urn:g' }] }).then(
      () => expect.fail(),
      (e: Error) => expect(e).to.be.instanceOf(SparqlStoreError),
    );
    await store
      .commit({ ops: [{ op: 'deleteMatching', subject: '<urn:s> } ; DROP ALL ; #', predicate: null, object: null, graph: 'urn:g' }] })
      .then(
        () => expect.fail(),
        () => undefined,
      );
    expect(sent).to.have.length(0);
  });

  it('writes the dataset into the query, replacing any FROM, sends it as protocol parameters too, and asks ASK as SELECT', () => {
    const { text } = withDataset('SELECT ?s FROM <urn:secret> FROM NAMED <urn:secret2> WHERE { ?s ?p ?o }', {
      defaultGraphs: ['urn:a', 'urn:b'],
      namedGraphs: [],
    });
    expect(text).to.match(/FROM <urn:a>\s*FROM <urn:b>\s*FROM NAMED <urn:dataspace:graph:none>/);
    expect(text).to.not.include('secret');
    const ask = withDataset('ASK { GRAPH <urn:c> { ?s ?p ?o } }', { defaultGraphs: [], namedGraphs: ['urn:b'] });
    expect(ask.asked).to.equal(true);
    expect(ask.text).to.match(/^SELECT \*/);
    expect(ask.text).to.match(/LIMIT 1/);
    expect(() => withDataset('INSERT DATA { <urn:a> <urn:b> <urn:c> }', { defaultGraphs: [], namedGraphs: [] })).to.throw(SparqlStoreError);
  });

  it('answers ASK over a dataset from the rows of its SELECT, and maps JSON results and skolems back to RDF terms', async () => {
    const { store, sent } = recording(() =>
      json({
        head: { vars: ['x', 'l', 'b'] },
        results: {
          bindings: [
            {
              x: { type: 'uri', value: `${SKOLEM_PREFIX}abc_b0` },
              l: { type: 'literal', value: 'hé', 'xml:lang': 'fr' },
              b: { type: 'bnode', value: 'nodeID://b1' },
              // Virtuoso's form of BIND (true AS ?t) and BIND (false AS ?f).
              t: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '1' },
              f: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '0' },
            },
          ],
        },
      }),
    );
    expect(await store.ask('ASK { ?s ?p ?o }', { defaultGraphs: ['urn:a'], namedGraphs: ['urn:b'] })).to.equal(true);
    expect(nth(sent, 0).form.getAll('default-graph-uri')).to.deep.equal(['urn:a']);
    expect(nth(sent, 0).form.getAll('named-graph-uri')).to.deep.equal(['urn:b']);
    const row = only(await store.select('SELECT * WHERE { ?x ?l ?b }'));
    expect(row.get('x')).to.include({ termType: 'BlankNode', value: 'abc_b0' });
    expect(row.get('l')).to.include({ termType: 'Literal', value: 'hé', language: 'fr' });
    expect(row.get('b')!.termType).to.equal('BlankNode');
    expect(row.get('t')!.value).to.equal('true');
    expect(row.get('f')!.value).to.equal('false');
  });

  it("takes its caps and term forms from the server profile: Virtuoso's unless another is given", async () => {
    expect(recording().store.rowCap).to.equal(VIRTUOSO.rowCap).and.to.equal(10_000);
    const other: ServerProfile = { name: 'other', rowCap: 500, batchChanges: 1, batchChars: 1024, maxRequests: 2, booleanForms: {} };
    const answers: (() => void)[] = [];
    const { store } = recording(async (s) => {
      if (s.form.has('update')) await new Promise<void>((ok) => answers.push(ok));
      return s.form.has('update')
        ? text('ok')
        : json({
            results: { bindings: [{ t: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '1' } }] },
          });
    }, other);
    expect(store.rowCap).to.equal(500);
    const insert = (n: number) => ({ op: 'insert' as const, nquads: `<urn:s:${n}> <urn:p> "${n}" <urn:g> .\n` });
    const commits = await Promise.all([1, 2, 3].map((n) => store.commit({ ops: [insert(n)] })));
    let durable = false;
    const all = Promise.all(commits.map((c) => c.durable)).then(() => {
      durable = true;
    });
    for (let round = 0; round < 50 && !durable; round++) {
      await new Promise((ok) => setTimeout(ok, 5));
      answers.splice(0).forEach((answer) => answer());
    }
    await all;
    // One change a request (batchChanges 1), and "1" is no boolean form of this server.
    expect(store.stats).to.deep.include({ changes: 3, requests: 3, maxBatch: 1 });
    const row = only(await store.select('SELECT ?t WHERE {}'));
    expect(row.get('t')!.value).to.equal('1');
  });

  it('turns skolem IRIs back into blank nodes in serialised answers of every format', () => {
    const s = `${SKOLEM_PREFIX}abc_b0`;
    expect(inNodeForms(`<urn:s> <urn:p> <${s}> .\n`, 'application/n-triples')).to.equal('<urn:s> <urn:p> _:abc_b0 .\n');
    expect(inNodeForms(`<result><binding name="x"><uri>${s}</uri></binding></result>`, 'application/sparql-results+xml')).to.include(
      '<bnode>abc_b0</bnode>',
    );
    expect(
      JSON.parse(
        inNodeForms(
          JSON.stringify({ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: s } }] } }),
          'application/sparql-results+json',
        ),
      ).results.bindings[0].x,
    ).to.deep.equal({ type: 'bnode', value: 'abc_b0' });
    expect(inNodeForms(`x\n${s}\n`, 'text/csv')).to.equal('x\n_:abc_b0\n');
  });

  it("writes the server's date-times in the node's one form, in text answers and in JSON results", () => {
    const dt = (v: string) => `"${v}"^^<http://www.w3.org/2001/XMLSchema#dateTime>`;
    expect(inNodeForms(`<urn:s> <urn:p> ${dt('2026-11-28T02:11:07.800Z')} .\n`, 'application/n-triples')).to.equal(
      `<urn:s> <urn:p> ${dt('2026-11-28T02:11:07.8Z')} .\n`,
    );
    expect(inNodeForms(`?t\n${dt('2026-11-28T02:11:07.000+00:00')}\n`, 'text/tab-separated-values')).to.equal(
      `?t\n${dt('2026-11-28T02:11:07Z')}\n`,
    );
    // A string that quotes a date-time literal is not one: its quotes are escaped.
    const quoted = `<urn:s> <urn:p> "say \\"2026-11-28T02:11:07.800Z\\"^^<http://www.w3.org/2001/XMLSchema#dateTime>" .\n`;
    expect(inNodeForms(quoted, 'application/n-triples')).to.equal(quoted);
    const json = JSON.stringify({
      head: { vars: ['t'] },
      results: {
        bindings: [{ t: { type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#dateTime', value: '2026-11-28T02:11:07.800Z' } }],
      },
    });
    expect(JSON.parse(inNodeForms(json, 'application/sparql-results+json')).results.bindings[0].t.value).to.equal('2026-11-28T02:11:07.8Z');
  });
});

describe('store: SPARQL store over real HTTP (undici)', () => {
  it('keeps its connection alive across requests, sends the form and credentials, maps a refusal and a server that stops answering to SparqlStoreError', async () => {
    const { createServer } = await import('node:http');
    let connections = 0;
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        bodies.push(`${req.headers.authorization} ${req.headers['content-type']} ${body}`);
        const query = new URLSearchParams(body).get('query') ?? '';
        if (query.includes('hang')) return; // never answers
        if (query.includes('refuse')) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('bad query');
          return;
        }
        res
          .writeHead(200, { 'content-type': 'application/sparql-results+json' })
          .end('{"results":{"bindings":[{"n":{"type":"literal","value":"7"}}]}}');
      });
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/sparql`;
    const store = new SparqlStore({ queryUrl: url, updateUrl: url, user: 'node', password: 'pw', timeoutMs: 300 });
    try {
      for (let i = 0; i < 6; i++) expect(nth(await store.select('SELECT ?n WHERE { ?s ?p ?n }'), 0).get('n')!.value).to.equal('7');
      // Kept alive: undici's pool may open a second one while the first still settles its answer.
      expect(connections).to.be.at.most(2);
      expect(bodies[0]).to.equal(
        `Basic ${Buffer.from('node:pw').toString('base64')} application/x-www-form-urlencoded ${new URLSearchParams({ query: 'SELECT ?n WHERE { ?s ?p ?n }' })}`,
      );
      await store.select('SELECT * WHERE { ?s ?p "refuse" }').then(
        () => expect.fail(),
        (e: Error) => {
          expect(e).to.be.instanceOf(SparqlStoreError);
          expect(e.message).to.match(/answered 400: bad query/);
        },
      );
      const started = Date.now();
      await store.select('SELECT * WHERE { ?s ?p "hang" }').then(
        () => expect.fail(),
        (e: Error) => {
          expect(e).to.be.instanceOf(SparqlStoreError);
          expect(e.message).to.match(/did not answer/);
        },
      );
      expect(Date.now() - started).to.be.within(250, 5000);
    } finally {
      await store.close();
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });
});
