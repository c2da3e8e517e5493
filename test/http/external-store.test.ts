import { expect } from 'chai';
import type { Term } from '@rdfjs/types';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createNode } from '../../src/node.js';
import { QueryBank, iri, list } from '../../src/core/queries/query-bank.js';
import { termToString } from '../../src/core/rdf/terms.js';
import { SparqlStore } from '../../src/adapters/sparql-server/sparql-store.js';
import { unpackTriples } from '../../src/core/views/packed-triples.js';
import { awkwardNQuads } from '../helpers/awkward-triples.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { TEST_ANONYMOUS, Virtuoso, VIRTUOSO_GRAPH_INDEX, VIRTUOSO_GRAPH_INDEX_DROP, virtuosoMissing } from '../helpers/virtuoso.js';
import { nth } from '../helpers/present.js';
import { EMBEDDED_ONLY } from '../helpers/embedded-only.js';
import { runChildSuite } from '../helpers/child-suite.js';

const queries = new QueryBank();

describe('external store: the node on Virtuoso Open Source (SPARQL protocol)', function () {
  this.timeout(900_000);
  let virtuoso: Virtuoso;
  let store: SparqlStore;

  before(async function () {
    // Inside the child run below, this file is part of the suite being run: nothing more to do there.
    if (externalSparqlUrl()) this.skip(); // reason: inside the child run this file is one of the suite's files, not the driver
    // Without Virtuoso installed there is nothing to run against; .ci/run installs it, so CI never skips.
    const missing = virtuosoMissing();
    if (missing) {
      console.warn(`    skipped: ${missing}`);
      this.skip(); // reason: no virtuoso-t on this machine (.ci/run installs it, so CI always runs these)
    }
    virtuoso = await Virtuoso.start();
    store = new SparqlStore({
      queryUrl: virtuoso.sparqlUrl,
      updateUrl: virtuoso.sparqlUrl,
      user: undefined,
      password: undefined,
      timeoutMs: 30_000,
    });
  });
  after(async () => {
    await virtuoso?.stop();
  });

  it('is set up by deploy/virtuoso-setup.sql and the optional deploy/virtuoso-graph-index.sql, each safe to run again', async () => {
    const indexes = async () =>
      (await virtuoso.isql("select KEY_NAME from DB.DBA.SYS_KEYS where KEY_TABLE = 'DB.DBA.RDF_QUAD';")).match(/RDF_QUAD\w*/g)?.sort();
    const defaults = await indexes();
    expect(defaults).to.not.include('RDF_QUAD_GSPO');
    // A second run of the set-up changes nothing and reports no error (setUp throws on any "*** Error" line).
    await virtuoso.setUp();
    expect(await indexes()).to.deep.equal(defaults);
    // It leaves anonymous SPARQL no update right; this throwaway database's test grant gives it back.
    const refused = await (
      await store.commit({ ops: [{ op: 'insert', nquads: '<urn:x:setup> <urn:p:ran> "anonymous" <urn:test:setup> .\n' }] })
    ).durable.then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).to.match(/answered [45]\d\d/);
    await virtuoso.setUp(TEST_ANONYMOUS);
    await (
      await store.commit({ ops: [{ op: 'insert', nquads: '<urn:x:setup> <urn:p:ran> "twice" <urn:test:setup> .\n' }] })
    ).durable;
    expect(await store.select('SELECT ?o WHERE { GRAPH <urn:test:setup> { <urn:x:setup> <urn:p:ran> ?o } }')).to.have.length(1);
    // The graph index, twice: one index more, and reads as before.
    for (let i = 0; i < 2; i++) await virtuoso.setUp(VIRTUOSO_GRAPH_INDEX);
    expect(await indexes()).to.deep.equal([...defaults!, 'RDF_QUAD_GSPO'].sort());
    expect(await store.select('SELECT ?o WHERE { GRAPH <urn:test:setup> { ?s ?p ?o } }')).to.have.length(1);
    await virtuoso.setUp(VIRTUOSO_GRAPH_INDEX_DROP);
    expect(await indexes()).to.deep.equal(defaults);
  });

  it('stores blank nodes, IRI-looking strings, typed and language-tagged literals as written', async () => {
    await (
      await store.commit({
        ops: [
          {
            op: 'insert',
            nquads:
              '<urn:uuid:11111111-1111-4111-8111-111111111111> <urn:p:party> _:b0 <urn:test:g1> .\n' +
              '_:b0 <urn:p:name> "Acme \\"Ltd\\"\\nline"@en <urn:test:g1> .\n' +
              '<urn:x:c> <urn:p:globalId> "urn:uuid:11111111-1111-4111-8111-111111111111" <urn:test:g1> .\n' +
              '<urn:x:c> <urn:p:when> "2026-11-20T10:00:00.123Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> <urn:test:g1> .\n',
          },
        ],
      })
    ).durable;
    const quads = await store.construct('CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <urn:test:g1> { ?s ?p ?o } }');
    const by = (p: string) => quads.find((q) => q.predicate.value === p)!;
    expect(by('urn:p:party').object.termType).to.equal('BlankNode');
    expect(by('urn:p:name').subject.equals(by('urn:p:party').object)).to.equal(true);
    expect(by('urn:p:name').object).to.include({ termType: 'Literal', value: 'Acme "Ltd"\nline', language: 'en' });
    expect(by('urn:p:globalId').object.termType).to.equal('Literal');
    expect(by('urn:p:when').object.value).to.equal('2026-11-20T10:00:00.123Z');
    const row = nth(await store.select('SELECT ?o WHERE { GRAPH <urn:test:g1> { <urn:x:c> <urn:p:globalId> ?o } }'), 0);
    expect(row.get('o')!.termType).to.equal('Literal');
  });

  it("reads a view's graphs packed a string a graph, the same triples as row by row, blank nodes and awkward literals included", async () => {
    const graph = 'urn:test:packed';
    await (
      await store.commit({
        ops: [
          {
            op: 'insert',
            nquads: `${awkwardNQuads(graph)}<urn:x:c> <urn:p:party> _:b0 <${graph}> .\n_:b0 <urn:p:name> "Acme" <${graph}> .\n`,
          },
        ],
      })
    ).durable;
    const graphs = list([iri(graph)]);
    const rows = await store.select(queries.bind('views/graphs-triples', { graphs }));
    const packed = nth(await store.select(queries.bind('views/graphs-packed', { graphs })), 0);
    const triples = unpackTriples(packed.get('text')!.value);
    expect(triples, packed.get('text')!.value).to.not.equal(undefined);
    const text = (s: Term, p: Term, o: Term) => `${termToString(s)} ${termToString(p)} ${termToString(o)}`;
    expect(triples!.map((q) => text(q.subject, q.predicate, q.object)).sort())
      .to.deep.equal(rows.map((row) => text(row.get('s')!, row.get('p')!, row.get('o')!)).sort())
      .and.to.have.length(13);
  });

  it('applies one change as one request: drop, delete by pattern and insert in order', async () => {
    await (
      await store.commit({
        ops: [
          {
            op: 'insert',
            nquads:
              '<urn:x:s> <urn:p:a> "1" <urn:test:g2> .\n<urn:x:s> <urn:p:b> "2" <urn:test:g3> .\n<urn:x:t> <urn:p:b> "3" <urn:test:g3> .\n',
          },
        ],
      })
    ).durable;
    await (
      await store.commit({
        ops: [
          { op: 'dropGraph', graph: 'urn:test:g2' },
          { op: 'dropGraph', graph: 'urn:test:never-written' },
          { op: 'deleteMatching', subject: '<urn:x:s>', predicate: null, object: null, graph: 'urn:test:g3' },
          { op: 'insert', nquads: '<urn:x:s> <urn:p:b> "4" <urn:test:g3> .\n' },
        ],
      })
    ).durable;
    const rows = await store.select(
      'SELECT ?g ?s ?o WHERE { GRAPH ?g { ?s ?p ?o } FILTER (?g IN (<urn:test:g2>, <urn:test:g3>)) } ORDER BY ?o',
    );
    expect(rows.map((r) => `${r.get('g')!.value} ${r.get('s')!.value} ${r.get('o')!.value}`)).to.deep.equal([
      'urn:test:g3 urn:x:t 3',
      'urn:test:g3 urn:x:s 4',
    ]);
  });

  it('keeps the dataset exact: the default graph is the union of the given graphs, the named graphs exactly those, whatever FROM the text says', async () => {
    await (
      await store.commit({
        ops: [
          {
            op: 'insert',
            nquads:
              '<urn:x:q> <urn:p:v> "a" <urn:test:a> .\n<urn:x:q> <urn:p:v> "b" <urn:test:b> .\n<urn:x:q> <urn:p:v> "c" <urn:test:c> .\n',
          },
        ],
      })
    ).durable;
    const values = async (query: string, dataset: { defaultGraphs: string[]; namedGraphs: string[] }) =>
      (await store.select(query, dataset)).map((r) => [...r.values()].map((t) => t.value).join(' ')).sort();
    const ab = { defaultGraphs: ['urn:test:a', 'urn:test:b'], namedGraphs: ['urn:test:b'] };
    expect(await values('SELECT ?v WHERE { <urn:x:q> <urn:p:v> ?v }', ab)).to.deep.equal(['a', 'b']);
    expect(await values('SELECT ?g ?v WHERE { GRAPH ?g { <urn:x:q> <urn:p:v> ?v } }', ab)).to.deep.equal(['urn:test:b b']);
    expect(await values('SELECT ?v WHERE { GRAPH <urn:test:c> { <urn:x:q> <urn:p:v> ?v } }', ab)).to.deep.equal([]);
    expect(await values('SELECT ?v FROM <urn:test:c> WHERE { <urn:x:q> <urn:p:v> ?v }', ab)).to.deep.equal(['a', 'b']);
    expect(await values('SELECT ?g ?v FROM NAMED <urn:test:c> WHERE { GRAPH ?g { <urn:x:q> <urn:p:v> ?v } }', ab)).to.deep.equal([
      'urn:test:b b',
    ]);
    expect(await values('SELECT ?v WHERE { <urn:x:q> <urn:p:v> ?v }', { defaultGraphs: [], namedGraphs: ['urn:test:a'] })).to.deep.equal(
      [],
    );
    expect(
      await values('SELECT ?g WHERE { GRAPH ?g { <urn:x:q> ?p ?v } }', { defaultGraphs: ['urn:test:a'], namedGraphs: [] }),
    ).to.deep.equal([]);
    expect(await store.ask('ASK { GRAPH <urn:test:c> { ?s ?p ?o } }', ab)).to.equal(false);
    expect(await store.ask('ASK { GRAPH <urn:test:b> { ?s ?p ?o } }', ab)).to.equal(true);
  });

  it('starts on the SPARQL store with a data dir that does not exist yet, and creates it with the JWT secret', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'dataspace-external-start-'));
    const dataDir = join(parent, 'not', 'yet', 'data');
    try {
      const node = await createNode(readConfig({ ...virtuoso.env(), DATASPACE_DATA_DIR: dataDir }), createLogger('silent'));
      try {
        expect(node.capabilities, 'a SPARQL server has no capability of the embedded store').to.deep.equal({});
        expect(existsSync(join(dataDir, 'jwt-secret'))).to.equal(true);
      } finally {
        await node.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('passes the HTTP suite (test/http) with the node on Virtuoso', async () => {
    const { code, output, summary } = await runChildSuite(['http/*.test.js'], { DATASPACE_TEST_SPARQL_URL: virtuoso.sparqlUrl });
    console.log(`      HTTP suite on Virtuoso: ${summary}`);
    console.log(`      left out, embedded only: ${EMBEDDED_ONLY.map((e) => `${e.test} (${e.reason})`).join('; ')}`);
    expect(code, output.slice(-20_000)).to.equal(0);
    expect(output).to.match(/\d+ passing/);
  });
});
