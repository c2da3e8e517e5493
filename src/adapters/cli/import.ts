import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/config-values.js';
import { blobsDirOf, importBlobs, type BlobsCopied } from '../../core/documents/blob-backup.js';
import { FileBlobStore } from '../../core/ports/blob-store.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { lockDataDir, releaseDataDir } from '../ops/data-dir-lock.js';
import { QueryBank } from '../../core/queries/query-bank.js';
import { formatOf, graphsOfFile, holdsStore } from '../oxigraph/recovery/backup.js';
import { openEmbeddedStore, readUnits } from '../oxigraph/recovery/recovery.js';
import { Snapshotter } from '../oxigraph/recovery/snapshot.js';
import { SparqlStore } from '../sparql-server/sparql-store.js';
import type { NodeData } from './node-data.js';
import { progressBar } from './progress.js';

/**
 * dataspace import FILE (also npm run import -- FILE): loads an export into an empty data dir
 * (embedded: written as the first snapshot, fsynced) or into the SPARQL server (one Update per graph).
 * The documents' files an export wrote in FILE.blobs/ go to the data dir's blob store, each checked
 * against its sha-256. Refuses a data dir or server that already holds the node's data, so nothing is
 * ever merged by accident; holds the data dir's lock meanwhile. A progress bar (bytes, or graphs) on standard error when it is a terminal.
 */
export async function runImport(file: string, config: NodeData): Promise<Record<string, unknown>> {
  if (!existsSync(file)) throw new ConfigError(`No such file: ${file}`);
  const logger = createLogger(process.env.DATASPACE_LOG ?? 'warn');
  const queries = new QueryBank();
  if (config.store.kind === 'sparql') {
    const store = new SparqlStore(config.store.sparql!);
    if ((await store.select(queries.text('store/node-graphs'))).length > 0)
      throw new ConfigError('The SPARQL server already holds graphs of a node: import only into an empty one');
    const graphs = [...graphsOfFile(file)];
    const bar = progressBar('import', graphs.length, 'graphs');
    try {
      for (const [i, nquads] of graphs.entries()) {
        await store.commit({ ops: [{ op: 'insert', nquads }] });
        bar.update(i + 1);
      }
    } finally {
      bar.stop();
    }
    return { file, graphs: graphs.length, quads: await store.size(), blobs: await restoreBlobs(file, config.dataDir, config.fsync) };
  }
  if (holdsStore(config.dataDir)) {
    throw new ConfigError(`${config.dataDir} already holds a store: import only into an empty data dir`);
  }
  // No node may start on the data dir while it is being filled.
  const held = lockDataDir(config.dataDir);
  try {
    return await importEmbedded(file, config.dataDir, config.fsync, queries, logger);
  } finally {
    releaseDataDir(config.dataDir, held);
  }
}

/** The documents' files an export wrote beside `file`, stored in the data dir (none when it has none). */
async function restoreBlobs(file: string, dataDir: string, fsync: boolean): Promise<BlobsCopied> {
  const source = blobsDirOf(file);
  return importBlobs(source, new FileBlobStore(join(dataDir, 'blobs'), fsync));
}

async function importEmbedded(
  file: string,
  dataDir: string,
  fsync: boolean,
  queries: QueryBank,
  logger: Logger,
): Promise<Record<string, unknown>> {
  const { store } = openEmbeddedStore(dataDir, fsync, logger);
  if (formatOf(file) === 'trig') {
    const graphs = [...graphsOfFile(file)];
    const bar = progressBar('import', graphs.length, 'graphs');
    graphs.forEach((nquads, i) => {
      store.loadNQuads(nquads, false);
      bar.update(i + 1);
    });
    bar.stop();
  } else {
    // Unit by unit, as recovery reads snapshots: the bar follows the bytes loaded.
    const size = statSync(file).size;
    const bar = progressBar('import', size, 'bytes');
    let done = 0;
    readUnits(file, (bytes) => {
      store.loadNQuads(bytes, false);
      done += bytes.length;
      bar.update(Math.min(done, size));
    });
    bar.update(size);
    bar.stop();
  }
  const quads = store.resync();
  // The loaded state becomes snapshot 1; the empty log 0 is retired with it.
  const snapshot = await new Snapshotter(store, queries, {
    dir: dataDir,
    fsync,
    logBytesThreshold: Number.MAX_SAFE_INTEGER,
    logger,
  }).take();
  await store.close();
  if (!snapshot) throw new Error('Writing the snapshot failed; the data dir was left without it');
  return { file, quads, snapshot: snapshot.generation, blobs: await restoreBlobs(file, dataDir, fsync) };
}
