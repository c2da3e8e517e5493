import oxigraph from 'oxigraph';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../src/core/rdf/namespaces.js';
import { VisibleGraphs } from '../src/adapters/sparql-endpoint/engine/visible-graphs.js';

/**
 * What an engine thread pays to bring a caller's visible graphs up to date after writes: catching up
 * with the subjects touched, against working the whole set out again. `node dist/bench/visible-catch-up.js
 * [consignments] [touched,...]`: a catalog of `consignments` owned by one forwarder with three data
 * graphs each (as a store at that scale holds), then for each count of touched consignments, the
 * catch-up and a recompute, and whether both give the same graphs.
 */
const consignments = Number(process.argv[2] ?? 100_000);
const touchedCounts = (process.argv[3] ?? '500,2000,8000,32000').split(',').map(Number);
const OWNER = 'did:web:forwarder.example';

const catalog = new oxigraph.Store();
const graphsOf = (c: number) => ['state', 'event', 'document'].map((kind) => [`urn:uuid:${kind}-${c}`, kind] as const);
const lines: string[] = [];
const meta = `<${GRAPHS.metadata}>`;
for (let c = 0; c < consignments; c++) {
  const iri = `<urn:dataspace:consignment:${c}>`;
  lines.push(`${iri} <${svc('owner')}> <${OWNER}> ${meta} .`);
  for (const [g, kind] of graphsOf(c))
    lines.push(`<${g}> <${svc('consignment')}> ${iri} ${meta} .`, `<${g}> <${svc('kind')}> "${kind}" ${meta} .`);
  if (lines.length > 100_000) catalog.load(lines.splice(0).join('\n'), { format: 'application/n-quads' });
}
catalog.load(lines.join('\n'), { format: 'application/n-quads' });
const dataGraphs = new Set<string>();
for (let c = 0; c < consignments; c++) for (const [g] of graphsOf(c)) dataGraphs.add(g);

const principal = { id: OWNER, role: 'freightForwarder' as const, country: 'GB', locations: [] };
const visible = new VisibleGraphs(
  () => catalog,
  new QueryBank(),
  () => dataGraphs,
);
let t = performance.now();
visible.of(principal);
console.log(`${consignments} consignments, ${dataGraphs.size} data graphs: first computation ${(performance.now() - t).toFixed(0)} ms`);
console.log('| consignments touched | catch-up ms | recompute ms | same graphs |\n|---:|---:|---:|---|');
let next = consignments;
for (const touched of touchedCounts) {
  // New consignments with their graphs, as Creates add them: the subjects a batch touches.
  const subjects = new Set<string>();
  const added: string[] = [];
  for (let i = 0; i < touched; i++, next++) {
    const iri = `urn:dataspace:consignment:${next}`;
    added.push(`<${iri}> <${svc('owner')}> <${OWNER}> ${meta} .`);
    subjects.add(iri);
    for (const [g, kind] of graphsOf(next)) {
      added.push(`<${g}> <${svc('consignment')}> <${iri}> ${meta} .`, `<${g}> <${svc('kind')}> "${kind}" ${meta} .`);
      subjects.add(g);
      dataGraphs.add(g);
      visible.dataGraph(g, true);
    }
  }
  catalog.load(added.join('\n'), { format: 'application/n-quads' });
  visible.changed(subjects, false);
  t = performance.now();
  const caught = new Set(visible.of(principal).graphs);
  const catchUp = performance.now() - t;
  const fresh = new VisibleGraphs(
    () => catalog,
    new QueryBank(),
    () => dataGraphs,
  );
  t = performance.now();
  const recomputed = fresh.of(principal).graphs;
  const recompute = performance.now() - t;
  const same = caught.size === recomputed.size && [...recomputed].every((g) => caught.has(g));
  console.log(`| ${touched} | ${catchUp.toFixed(0)} | ${recompute.toFixed(0)} | ${same ? 'yes' : 'NO'} |`);
}
