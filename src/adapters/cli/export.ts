import { join } from 'node:path';
import { ConfigError } from '../../core/config-values.js';
import { blobsDirOf, exportBlobs, type BlobsCopied } from '../../core/documents/blob-backup.js';
import { createLogger } from '../../core/logger.js';
import { QueryBank } from '../../core/queries/query-bank.js';
import { embeddedSource, exportGraphs, holdsStore, sparqlSource, type ExportResult } from '../oxigraph/recovery/backup.js';
import { openEmbeddedStore } from '../oxigraph/recovery/recovery.js';
import { SparqlStore } from '../sparql-server/sparql-store.js';
import type { NodeData } from './node-data.js';
import { progressBar } from './progress.js';

/** What an export writes, and what it says it left out. */
export interface ExportSummary extends ExportResult {
  file: string;
  /** The documents' files, copied beside FILE. */
  blobs: BlobsCopied;
  leftOut: string[];
}

/**
 * dataspace export FILE [--include-secrets] (also npm run export -- FILE): everything the node holds
 * (data graphs, metadata, policies, organisations, users with their password hashes, activity log,
 * outbox) as N-Quads, or TriG when FILE ends in .trig, and the documents' files in FILE.blobs/. Reads
 * the data dir without changing it, so it can run beside the node. What it leaves out (notification
 * secrets unless --include-secrets, the JWT signing secret) is listed in its answer. A progress bar
 * (graphs) on standard error when it is a terminal.
 */
export async function runExport(file: string, options: { includeSecrets: boolean }, config: NodeData): Promise<ExportSummary> {
  if (config.store.kind === 'embedded' && !holdsStore(config.dataDir)) {
    throw new ConfigError(`No node data in ${config.dataDir}: set DATASPACE_DATA_DIR to the data dir of the node to export`);
  }
  const logger = createLogger(process.env.DATASPACE_LOG ?? 'warn');
  const queries = new QueryBank();
  const source =
    config.store.kind === 'sparql'
      ? sparqlSource(new SparqlStore(config.store.sparql!), queries)
      : embeddedSource(openEmbeddedStore(config.dataDir, false, logger, { readOnly: true }).store, queries);
  const bar = progressBar('export', 0, 'graphs');
  let result: ExportResult;
  try {
    result = await exportGraphs(source, file, {
      includeSecrets: options.includeSecrets,
      onProgress: (done, total) => bar.update(done, total),
    });
  } finally {
    bar.stop();
  }
  // After the graphs: a file is stored before any record names it, so every file they name is there.
  const blobs = await exportBlobs(join(config.dataDir, 'blobs'), blobsDirOf(file));
  const leftOut = ['the JWT signing secret (DATA_DIR/jwt-secret or JWT_SECRET): sessions end unless the restored node has the same one'];
  if (result.secretsLeftOut > 0) leftOut.push(`${result.secretsLeftOut} notification secrets (--include-secrets keeps them)`);
  if (config.replica) leftOut.push("a replica set's document files, catalog and ledgers in PostgreSQL: back up that database");
  return { file, ...result, blobs, leftOut };
}
