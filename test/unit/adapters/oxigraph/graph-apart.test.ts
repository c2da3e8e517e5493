import { expect } from 'chai';
import oxigraph from 'oxigraph';
import { GRAPHS } from '../../../../src/core/rdf/namespaces.js';
import { splitChange, splitNQuadsBytes, splitNQuadsText } from '../../../../src/adapters/oxigraph/graph-apart.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';

const LOG = GRAPHS.activityLog;
const M = GRAPHS.metadata;
const logLine = (n: number) => `<urn:uuid:a${n}> <urn:p:entry> "{\\"n\\":${n}}" <${LOG}> .`;
const dataLine = (n: number) => `<urn:uuid:g${n}#s> <urn:p:v> "${n}" <urn:uuid:g${n}> .`;
// Lines that mention the activity log's IRI without being in its graph: as an object in another graph,
// and in a literal of another graph.
const lookalikes = [`<urn:x:s> <urn:p:graph> <${LOG}> <${M}> .`, `<urn:x:s> <urn:p:text> " <${LOG}> ." <${M}> .`];

describe('store: the activity log apart (graph-apart)', () => {
  it("splits N-Quads text and bytes by graph, keeping each part's order", () => {
    const lines = [dataLine(1), logLine(1), ...lookalikes, logLine(2), dataLine(2), logLine(3)];
    const text = `${lines.join('\n')}\n`;
    const rest = `${[dataLine(1), ...lookalikes, dataLine(2)].join('\n')}\n`;
    const apart = `${[logLine(1), logLine(2), logLine(3)].join('\n')}\n`;
    expect(splitNQuadsText(text)).to.deep.equal({ rest, apart });
    const bytes = splitNQuadsBytes(Buffer.from(text));
    expect(Buffer.from(bytes.rest).toString()).to.equal(rest);
    expect(Buffer.from(bytes.apart).toString()).to.equal(apart);
    expect(bytes.apartLines).to.equal(3);
    // A last line without its newline, and a chunk with none of the graph (given back as it is).
    expect(Buffer.from(splitNQuadsBytes(Buffer.from(`${dataLine(1)}\n${logLine(4)}`)).apart).toString()).to.equal(logLine(4));
    const none = Buffer.from(`${dataLine(3)}\n`);
    expect(splitNQuadsBytes(none).rest).to.equal(none);
    // Every line lands in exactly one part, as a parser reads them.
    const parsed = (nquads: string) => oxigraph.parse(nquads, { format: 'application/n-quads' }).map((q) => q.graph.value);
    expect(parsed(apart).every((g) => g === LOG)).to.equal(true);
    expect(parsed(rest).includes(LOG)).to.equal(false);
  });

  it("splits a change: ops on the activity log's graph, and the lines of mixed inserts", () => {
    const mixed = { op: 'insert' as const, nquads: `${dataLine(1)}\n${logLine(1)}\n` };
    const only = { op: 'insert' as const, nquads: `${dataLine(2)}\n` };
    const drop = { op: 'dropGraph' as const, graph: 'urn:uuid:g2' };
    const deleteLog = { op: 'deleteMatching' as const, subject: '<urn:uuid:a1>', predicate: null, object: null, graph: LOG };
    const { rest, apart } = splitChange({ ops: [mixed, only, drop, deleteLog] });
    expect(rest.ops).to.deep.equal([{ op: 'insert', nquads: `${dataLine(1)}\n` }, only, drop]);
    expect(apart.ops).to.deep.equal([{ op: 'insert', nquads: `${logLine(1)}\n` }, deleteLog]);
  });

  it('keeps the activity log in an Oxigraph instance of its own, read through activityLog, counted in the size', async () => {
    const store = new OxigraphStore(undefined, 'own', 'own');
    await store.commit({ ops: [{ op: 'insert', nquads: `${dataLine(1)}\n${logLine(1)}\n${lookalikes.join('\n')}\n` }] });
    expect(store.apart!.instance!.wasm.memory).to.not.equal(store.instance!.wasm.memory);
    expect(store.activityLog).to.equal(store.apart);
    expect(store.store.size).to.equal(3);
    expect(store.apart!.store.size).to.equal(1);
    expect(await store.size()).to.equal(4);
    const rows = await store.activityLog.select(`SELECT ?e WHERE { GRAPH <${LOG}> { ?a <urn:p:entry> ?e } }`);
    expect(rows.map((r) => r.get('e')!.value)).to.deep.equal(['{"n":1}']);
    // A bad line anywhere applies nothing, in either instance.
    const error = await store
      .commit({ ops: [{ op: 'insert', nquads: `${logLine(2)}\n<not an iri> <urn:p:v> "x" <urn:uuid:g9> .\n` }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).to.be.instanceOf(Error);
    expect(store.apart!.store.size).to.equal(1);
    expect(store.store.size).to.equal(3);
    // Loaded N-Quads go where commits go.
    store.loadNQuads(Buffer.from(`${logLine(3)}\n${dataLine(3)}\n`), true);
    expect([store.store.size, store.apart!.store.size]).to.deep.equal([4, 2]);
    expect(store.largestMemoryBytes).to.equal(
      Math.max(store.instance!.wasm.memory.buffer.byteLength, store.apart!.instance!.wasm.memory.buffer.byteLength),
    );
  });
});
