import { expect } from 'chai';
import { SKOLEM_PREFIX, SparqlStoreError, unskolemiseText, withDataset } from '../../../src/store/sparql-server-text.js';
import { SparqlStore } from '../../../src/store/sparql-store.js';

interface Sent { url: string; form: URLSearchParams; headers: Record<string, string> }

/** A SparqlStore whose requests are recorded and answered by `answer`. */
function recording(answer: (sent: Sent) => Response = () => new Response('{"boolean":true}', { headers: { 'content-type': 'application/sparql-results+json' } })) {
  const sent: Sent[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    const s = { url, form: new URLSearchParams(init.body as URLSearchParams), headers: init.headers as Record<string, string> };
    sent.push(s);
    return answer(s);
  }) as unknown as typeof fetch;
  const store = new SparqlStore({ queryUrl: 'http://127.0.0.1:1/query', updateUrl: 'http://127.0.0.1:1/update', user: 'node', password: 'pw', timeoutMs: 1000 }, fake);
  return { store, sent };
}

describe('store: SPARQL protocol adapter', () => {
  it('sends one change as one Update: operations in order, blank nodes skolemised per insert, Basic credentials', async () => {
    const { store, sent } = recording(() => new Response('ok'));
    await store.commit({
      ops: [
        { op: 'dropGraph', graph: 'urn:g:1' },
        { op: 'deleteMatching', subject: '<urn:s>', predicate: null, object: '"x"', graph: 'urn:g:meta' },
        { op: 'insert', nquads: '<urn:s> <urn:p> _:b0 <urn:g:1> .\n_:b0 <urn:q> "v" <urn:g:1> .\n' },
        { op: 'insert', nquads: '<urn:t> <urn:p> _:b0 <urn:g:1> .\n' },
      ],
    });
    expect(sent).to.have.length(1);
    expect(sent[0].url).to.equal('http://127.0.0.1:1/update');
    expect(sent[0].headers.authorization).to.equal(`Basic ${Buffer.from('node:pw').toString('base64')}`);
    const update = sent[0].form.get('update')!;
    const order = ['DROP SILENT GRAPH <urn:g:1>', 'DELETE WHERE { GRAPH <urn:g:meta> { <urn:s> ?p "x" } }', 'INSERT DATA', 'INSERT DATA'].map((t) => update.indexOf(t, 0));
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
    const { store, sent } = recording((s) => {
      if (!s.form.has('update')) return new Response('{"results":{"bindings":[]}}', { headers: { 'content-type': 'application/sparql-results+json' } });
      return undefined as unknown as Response;
    });
    // Updates wait for the test to answer them; queries answer at once.
    const held = (store as unknown as { fetchImpl: typeof fetch });
    const inner = held.fetchImpl;
    held.fetchImpl = (async (url: string, init: RequestInit) => {
      const form = new URLSearchParams(init.body as URLSearchParams);
      if (!form.has('update')) return inner(url, init);
      sent.push({ url, form, headers: init.headers as Record<string, string> });
      await new Promise<void>((ok) => answers.push(ok));
      return new Response('ok');
    }) as unknown as typeof fetch;
    const insert = (n: number) => ({ op: 'insert' as const, nquads: `<urn:s:${n}> <urn:p> _:b0 <urn:g:${n % 2}> .\n_:b0 <urn:q> "${n}" <urn:g:meta> .\n` });
    const done: number[] = [];
    const first = await store.commit({ ops: [insert(1)] });
    void first.durable.then(() => done.push(1));
    expect(sent).to.have.length(1);
    const later = await Promise.all([
      store.commit({ ops: [insert(2)] }),
      store.commit({ ops: [{ op: 'deleteMatching', subject: '<urn:s:1>', predicate: null, object: null, graph: 'urn:g:1' }, insert(3)] }),
      store.commit({ ops: [insert(4)] }),
    ]);
    later.forEach((c, i) => void c.durable.then(() => done.push(i + 2)));
    let read = false;
    const query = store.select('SELECT * WHERE { ?s ?p ?o }').then(() => { read = true; });
    await new Promise((ok) => setTimeout(ok, 20));
    // Nothing more is sent, nothing is durable and no read runs until the server answered.
    expect(sent).to.have.length(1);
    expect(done).to.deep.equal([]);
    expect(read).to.equal(false);
    answers.shift()!();
    await new Promise((ok) => setTimeout(ok, 20));
    expect(done).to.deep.equal([1]);
    expect(sent).to.have.length(2);
    const update = sent[1].form.get('update')!;
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
    const gate = new Promise<void>((ok) => { release = ok; });
    const { store } = recording(() => new Response('ok'));
    const held = (store as unknown as { fetchImpl: typeof fetch });
    held.fetchImpl = (async () => {
      await gate;
      if (refuse) return new Response('no', { status: 500 });
      return new Response('ok');
    }) as unknown as typeof fetch;
    const ins = { ops: [{ op: 'insert' as const, nquads: '<urn:s> <urn:p> "v" <urn:g> .\n' }] };
    const a = await store.commit(ins);
    const b = await store.commit(ins);
    const outcomes = Promise.all([a.durable, b.durable].map((d) => d.then(() => 'ok', (e: Error) => e.message)));
    release();
    const [ra, rb] = await outcomes;
    expect(ra).to.match(/answered 500/);
    expect(rb).to.match(/answered 500/);
    refuse = false;
    await (await store.commit(ins)).durable;
  });

  it('keeps at most 8 requests open at once, reading each answer whole before the next starts', async () => {
    const { store } = recording();
    let open = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    (store as unknown as { fetchImpl: typeof fetch }).fetchImpl = (async () => {
      open++;
      most = Math.max(most, open);
      await new Promise<void>((ok) => releases.push(ok));
      open--;
      return new Response('{"results":{"bindings":[{"n":{"type":"literal","value":"1"}}]}}', { headers: { 'content-type': 'application/sparql-results+json' } });
    }) as unknown as typeof fetch;
    let settled = false;
    const all = Promise.all(Array.from({ length: 20 }, () => store.select('SELECT ?n WHERE { ?s ?p ?n }'))).finally(() => { settled = true; });
    for (let round = 0; round < 50 && !settled; round++) {
      await new Promise((ok) => setTimeout(ok, 5));
      releases.splice(0).forEach((release) => release());
    }
    expect((await all).map((rows) => rows[0].get('n')!.value)).to.deep.equal(Array(20).fill('1'));
    expect(most).to.equal(8);
  });

  it('refuses to name a blank node in a delete, and an unparsable term, before sending anything', async () => {
    const { store, sent } = recording();
    await store.commit({ ops: [{ op: 'deleteMatching', subject: '_:b1', predicate: null, object: null, graph: 'urn:g' }] }).then(() => expect.fail(), (e: Error) => expect(e).to.be.instanceOf(SparqlStoreError));
    await store.commit({ ops: [{ op: 'deleteMatching', subject: '<urn:s> } ; DROP ALL ; #', predicate: null, object: null, graph: 'urn:g' }] }).then(() => expect.fail(), () => undefined);
    expect(sent).to.have.length(0);
  });

  it('writes the dataset into the query, replacing any FROM, sends it as protocol parameters too, and asks ASK as SELECT', () => {
    const { text } = withDataset('SELECT ?s FROM <urn:secret> FROM NAMED <urn:secret2> WHERE { ?s ?p ?o }', { defaultGraphs: ['urn:a', 'urn:b'], namedGraphs: [] });
    expect(text).to.match(/FROM <urn:a>\s*FROM <urn:b>\s*FROM NAMED <urn:dataspace:graph:none>/);
    expect(text).to.not.include('secret');
    const ask = withDataset('ASK { GRAPH <urn:c> { ?s ?p ?o } }', { defaultGraphs: [], namedGraphs: ['urn:b'] });
    expect(ask.asked).to.equal(true);
    expect(ask.text).to.match(/^SELECT \*/);
    expect(ask.text).to.match(/LIMIT 1/);
    expect(() => withDataset('INSERT DATA { <urn:a> <urn:b> <urn:c> }', { defaultGraphs: [], namedGraphs: [] })).to.throw(SparqlStoreError);
  });

  it('answers ASK over a dataset from the rows of its SELECT, and maps JSON results and skolems back to RDF terms', async () => {
    const { store, sent } = recording(() => new Response(JSON.stringify({
      head: { vars: ['x', 'l', 'b'] },
      results: { bindings: [{
        x: { type: 'uri', value: `${SKOLEM_PREFIX}abc_b0` }, l: { type: 'literal', value: 'hé', 'xml:lang': 'fr' }, b: { type: 'bnode', value: 'nodeID://b1' },
        // Virtuoso's form of BIND (true AS ?t) and BIND (false AS ?f).
        t: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '1' },
        f: { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '0' },
      }] },
    }), { headers: { 'content-type': 'application/sparql-results+json' } }));
    expect(await store.ask('ASK { ?s ?p ?o }', { defaultGraphs: ['urn:a'], namedGraphs: ['urn:b'] })).to.equal(true);
    expect(sent[0].form.getAll('default-graph-uri')).to.deep.equal(['urn:a']);
    expect(sent[0].form.getAll('named-graph-uri')).to.deep.equal(['urn:b']);
    const [row] = await store.select('SELECT * WHERE { ?x ?l ?b }');
    expect(row.get('x')).to.include({ termType: 'BlankNode', value: 'abc_b0' });
    expect(row.get('l')).to.include({ termType: 'Literal', value: 'hé', language: 'fr' });
    expect(row.get('b')!.termType).to.equal('BlankNode');
    expect(row.get('t')!.value).to.equal('true');
    expect(row.get('f')!.value).to.equal('false');
  });

  it('turns skolem IRIs back into blank nodes in serialised answers of every format', () => {
    const s = `${SKOLEM_PREFIX}abc_b0`;
    expect(unskolemiseText(`<urn:s> <urn:p> <${s}> .\n`, 'application/n-triples')).to.equal('<urn:s> <urn:p> _:abc_b0 .\n');
    expect(unskolemiseText(`<result><binding name="x"><uri>${s}</uri></binding></result>`, 'application/sparql-results+xml')).to.include('<bnode>abc_b0</bnode>');
    expect(JSON.parse(unskolemiseText(JSON.stringify({ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: s } }] } }), 'application/sparql-results+json')).results.bindings[0].x)
      .to.deep.equal({ type: 'bnode', value: 'abc_b0' });
    expect(unskolemiseText(`x\n${s}\n`, 'text/csv')).to.equal('x\n_:abc_b0\n');
  });
});
