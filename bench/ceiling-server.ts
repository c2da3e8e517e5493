/**
 * The ceiling of this design (issue 18's definition): the least a server must do to accept the same
 * activities the node accepts: express with JSON body parsing; jsonld.toRDF of the activity's
 * **object only** against the bundled contexts (cached, `tag: 'static'`); one load of those N-Quads
 * into a named graph of an in-memory Oxigraph store; one group-committed, fsynced append of the same
 * text to a log (no framing: bench/text-log.ts). No authentication, validation, authorisation,
 * metadata, policies or views.
 *
 * Usage: node dist/bench/ceiling-server.js <port> <dataDir> [reserveMegabytes]
 *
 * `reserveMegabytes` (the speed gate's): the store's WebAssembly memory grown first by about that much
 * in a scratch store, then freed for the real store to reuse. Each time that memory grows, V8
 * gives it a new ArrayBuffer and counts the whole memory again as external bytes until the old one is
 * collected, which starts a full GC: a ceiling growing its store ran 0–16 mark-compacts per 100 Creates
 * and its CPU per Create moved 1.8–7 ms with them; grown first, ~0 and 0.9–1.9 ms
 * (bench/results/2026-12-08-gate.md).
 */
// CI runs the gate, so the ceiling needs the node's guard against Node 20's V8 abort as much as the node.
import '../src/adapters/oxigraph/wasm/js-wasm-calls.js';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import express from 'express';
import jsonld from 'jsonld';
import oxigraph from 'oxigraph';
import { ServerClasses } from '../src/adapters/http/server-classes.js';
import { documentLoader } from '../src/core/rdf/document-loader.js';
import { TextLog } from './text-log.js';

const [portText, dataDir, reserveText] = process.argv.slice(2);
if (dataDir === undefined) throw new Error('usage: node dist/bench/ceiling-server.js <port> <dataDir>');
mkdirSync(dataDir, { recursive: true });
reserve(Number(reserveText ?? 0));
const store = new oxigraph.Store();
const log = new TextLog(join(dataDir, 'ceiling.nq'));

const app = express();
app.use(express.json({ limit: 1024 * 1024, type: ['application/json', 'application/ld+json'] }));

function reserve(megabytes: number): void {
  const scratch = new oxigraph.Store();
  // Literals of 256 kB: the allocator's memory grows as far in a fraction of the time small quads take.
  const literal = 'x'.repeat(256 * 1024);
  for (let i = 0; i < megabytes * 4; i++) {
    scratch.load(`<urn:r:${i}> <urn:r:p> "${i}${literal}" <urn:r:g> .\n`, { format: 'application/n-quads' });
  }
  // wasm-bindgen's free() (untyped in oxigraph's .d.ts) returns the memory to the allocator now.
  (scratch as unknown as { free(): void }).free();
}

app.post('/inbox', async (req, res) => {
  const object = { '@context': req.body['@context'], ...req.body.object };
  const nquads = (await jsonld.toRDF(object, {
    format: 'application/n-quads',
    documentLoader: documentLoader as never,
  } as never)) as unknown as string;
  const graph = `urn:uuid:${randomUUID()}`;
  // jsonld.js labels blank nodes _:b0, _:b1, ... on every call; keep each write's apart, into its graph.
  const label = `_:g${graph.slice(-12)}b`;
  const inGraph = nquads.replace(/_:b/g, label).replace(/ \.\n/g, ` <${graph}> .\n`);
  store.load(inGraph, { format: 'application/n-quads' });
  await log.append(inGraph);
  res.status(201).json({ id: graph, status: 'completed' });
});

app.get('/', (_req, res) => {
  res.json({ quads: store.size });
});

// As the node's server: requests born with the app's prototypes (src/adapters/http/server-classes.ts).
const classes = new ServerClasses();
classes.serve(app);
createServer(classes.options, app).listen(Number(portText), '127.0.0.1');
