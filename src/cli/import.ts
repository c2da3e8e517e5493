import { existsSync, readdirSync } from 'node:fs';
import { ConfigError, readConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { QueryBank } from '../queries/query-bank.js';
import { formatOf, graphsOfFile } from '../store/backup.js';
import { loadNQuadsFile, openEmbeddedStore } from '../store/recovery.js';
import { Snapshotter } from '../store/snapshot.js';
import { SparqlStore } from '../store/sparql-store.js';

/**
 * npm run import -- FILE: loads an export into an empty data dir (embedded: written as the first
 * snapshot, fsynced) or into the SPARQL server (one Update per graph). Refuses a data dir or server
 * that already holds the node's data, so nothing is ever merged by accident.
 */
async function main(): Promise<void> {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) throw new ConfigError('usage: npm run import -- FILE   (N-Quads, or TriG when FILE ends in .trig)');
  if (!existsSync(file)) throw new ConfigError(`No such file: ${file}`);
  const config = readConfig();
  const logger = createLogger(process.env.DATASPACE_LOG ?? 'warn');
  const queries = new QueryBank();
  if (config.store.kind === 'sparql') {
    const store = new SparqlStore(config.store.sparql!);
    if ((await store.select(queries.text('store/node-graphs'))).length > 0) throw new ConfigError('The SPARQL server already holds graphs of a node: import only into an empty one');
    let graphs = 0;
    for (const nquads of graphsOfFile(file)) {
      await store.commit({ ops: [{ op: 'insert', nquads }] });
      graphs += 1;
    }
    console.log(JSON.stringify({ file, graphs, quads: await store.size() }));
    return;
  }
  if (existsSync(config.dataDir) && readdirSync(config.dataDir).some((f) => /^(changes-\d+\.log|snapshot-\d+\.nq|changes\.log)$/.test(f))) {
    throw new ConfigError(`${config.dataDir} already holds a store: import only into an empty data dir`);
  }
  const { store } = openEmbeddedStore(config.dataDir, config.fsync, logger);
  if (formatOf(file) === 'trig') for (const nquads of graphsOfFile(file)) store.store.load(nquads, { format: 'application/n-quads' });
  else loadNQuadsFile(file, store, false);
  const quads = store.resync();
  // The loaded state becomes snapshot 1; the empty log 0 is retired with it.
  const snapshot = await new Snapshotter(store, queries, { dir: config.dataDir, fsync: config.fsync, logBytesThreshold: Number.MAX_SAFE_INTEGER, logger }).take();
  await store.close();
  if (!snapshot) throw new Error('Writing the snapshot failed; the data dir was left without it');
  console.log(JSON.stringify({ file, quads, snapshot: snapshot.generation }));
}

main().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : error.stack ?? error.message);
  process.exit(1);
});
