/**
 * The ceiling of this design: the least a server must do to accept the same activities the node
 * accepts, with the same parts: express with JSON body parsing, jsonld.toRDF against the same cached
 * bundled contexts, a load of the N-Quads into a named graph of an in-memory Oxigraph store, and a
 * group-committed, fsynced append to the same write-ahead log. No authentication, validation,
 * authorisation, metadata, policies or views.
 *
 * Usage: node dist/bench/ceiling-server.js <port> <dataDir>
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import jsonld from 'jsonld';
import oxigraph from 'oxigraph';
import { documentLoader } from '../src/rdf/document-loader.js';
import { WriteAheadLog } from '../src/store/write-ahead-log.js';

const [portText, dataDir] = process.argv.slice(2);
mkdirSync(dataDir, { recursive: true });
const store = new oxigraph.Store();
const log = new WriteAheadLog(join(dataDir, 'ceiling.log'), true);

const app = express();
app.use(express.json({ limit: 1024 * 1024, type: ['application/json', 'application/ld+json'] }));

app.post('/inbox', async (req, res) => {
  const nquads = (await jsonld.toRDF(req.body, { format: 'application/n-quads', documentLoader: documentLoader as never } as never)) as unknown as string;
  const graph = `urn:uuid:${randomUUID()}`;
  // jsonld.js labels blank nodes _:b0, _:b1, ... on every call; keep each write's apart, into its graph.
  const label = `_:g${graph.slice(-12)}b`;
  const inGraph = nquads.replace(/_:b/g, label).replace(/ \.\n/g, ` <${graph}> .\n`);
  store.load(inGraph, { format: 'application/n-quads' });
  await log.append({ ops: [{ op: 'insert', nquads: inGraph }] });
  res.status(201).json({ id: graph, status: 'completed' });
});

app.get('/', (_req, res) => {
  res.json({ quads: store.size });
});

app.listen(Number(portText), '127.0.0.1');
