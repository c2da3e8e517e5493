import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { DATE_TIME } from '../src/core/catalog/graph-metadata.js';
import { ConsignmentIndex } from '../src/core/ports/memory-consignment-catalog.js';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../src/core/rdf/namespaces.js';
import { NQuadsBuilder } from '../src/core/rdf/nquads.js';
import { OxigraphStore } from '../src/adapters/oxigraph/oxigraph-store.js';
import type { QuadStore } from '../src/core/ports/quad-store.js';
import { SparqlStore } from '../src/adapters/sparql-server/sparql-store.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { cycled } from './pick.js';

/*
 * The read index's load and heap (docs/read-index.md), on synthetic metadata: N consignment records,
 * each with one route location and one document.
 *   node --expose-gc dist/bench/read-index.js heap [n=10000]   heap of the one consignment index (embedded store)
 *   node dist/bench/read-index.js virtuoso [n=10000]              the paged load on a temporary Virtuoso (virtuoso-t installed)
 */
const [mode = 'heap', n = 10_000] = [process.argv[2], Number(process.argv[3] ?? 10_000)];
const queries = new QueryBank();

/** Batches of 200: Virtuoso's SPARQL compiler runs out of memory near 5,000 triples in one INSERT DATA. */
async function fill(store: QuadStore): Promise<void> {
  for (let start = 0; start < n; start += 200) {
    const meta = new NQuadsBuilder(GRAPHS.metadata);
    for (let i = start; i < Math.min(n, start + 200); i++) {
      const c = `urn:dataspace:consignment:${randomUUID()}`;
      const at = new Date(1e12 + i).toISOString();
      meta
        .iri(c, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', svc('ConsignmentRecord'))
        .literal(c, svc('globalId'), `urn:uuid:${randomUUID()}`)
        .literal(c, svc('identifier'), `REF-${i}`)
        .iri(c, svc('owner'), `did:web:org${i % 20}.example`)
        .literal(c, svc('created'), at, DATE_TIME)
        .literal(c, svc('updated'), at, DATE_TIME)
        .literal(c, svc('status'), 'published')
        .literal(c, svc('seq'), 2 * i + 1)
        .iri(c, svc('stateGraph'), `urn:uuid:${randomUUID()}`)
        .literal(c, svc('routeLocation'), cycled(['NLRTM', 'DEHAM', 'BEANR'], i));
      const d = `urn:dataspace:document:${randomUUID()}`;
      meta
        .iri(d, 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type', svc('DocumentRecord'))
        .iri(d, svc('consignment'), c)
        .literal(d, svc('seq'), 2 * i + 2);
    }
    await (
      await store.commit({ ops: [{ op: 'insert', nquads: meta.toString() }] })
    ).durable;
  }
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = (): number => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

async function heapRows(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const store = new OxigraphStore();
  await fill(store);
  const base = heap();
  const index = new ConsignmentIndex(store, queries);
  await index.complete();
  console.log(`the consignment index: ${mb(heap() - base)} MB (${index.size} consignments, ${index.byOwner.size} owners)`);
}

async function virtuosoRows(): Promise<void> {
  const virtuoso = await Virtuoso.start({ buffers: 170_000 });
  try {
    const store = new SparqlStore({
      queryUrl: virtuoso.sparqlUrl,
      updateUrl: virtuoso.sparqlUrl,
      user: undefined,
      password: undefined,
      timeoutMs: 120_000,
    });
    let t = Date.now();
    await fill(store);
    console.log(`filled ${n} consignments and ${n} documents in ${Date.now() - t} ms`);
    // Where a page's time goes: each of its three queries alone on the first range, warm (second ask).
    for (const name of ['ingest/consignment-records-page', 'policy/route-locations-page', 'policy/document-order-page']) {
      const range = { after: { integer: 0 }, upto: { integer: 10_000 } };
      await store.select(queries.bind(name, range));
      t = Date.now();
      const rows = await store.select(queries.bind(name, range));
      console.log(`${name}, one range of 10,000 numbers: ${Date.now() - t} ms, ${rows.length} rows`);
    }
    for (let run = 1; run <= 3; run++) {
      t = Date.now();
      const index = new ConsignmentIndex(store, queries);
      await index.complete();
      console.log(`paged load ${run}: ${Date.now() - t} ms`);
    }
  } finally {
    await virtuoso.stop();
  }
}

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await (mode === 'virtuoso' ? virtuosoRows() : heapRows());
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
