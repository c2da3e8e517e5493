import { ConfigError, readConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { QueryBank } from '../queries/query-bank.js';
import { embeddedSource, exportGraphs, sparqlSource, type ExportResult } from '../store/recovery/backup.js';
import { openEmbeddedStore } from '../store/recovery/recovery.js';
import { SparqlStore } from '../store/sparql-server/sparql-store.js';
import { isMain, quietOnClosedPipe } from './is-main.js';
import { progressBar } from './progress.js';

export const EXPORT_HELP = 'FILE ending in .trig writes TriG, else N-Quads';

/**
 * dataspace export FILE [--include-secrets] (also npm run export -- FILE): everything the node holds
 * (data graphs, metadata, policies, organisations, users with their password hashes, activity log,
 * outbox) as N-Quads, or TriG when FILE ends in .trig. Reads the data dir without changing it, so it can
 * run beside the node. Notification secrets are left out unless --include-secrets; document files stay
 * in DATA_DIR/blobs (copy that folder). A progress bar (graphs) on standard error when it is a terminal.
 */
export async function runExport(file: string, options: { includeSecrets: boolean }): Promise<ExportResult & { file: string }> {
  const config = readConfig();
  const logger = createLogger(process.env.DATASPACE_LOG ?? 'warn');
  const queries = new QueryBank();
  const source =
    config.store.kind === 'sparql'
      ? sparqlSource(new SparqlStore(config.store.sparql!), queries)
      : embeddedSource(openEmbeddedStore(config.dataDir, false, logger, { readOnly: true }).store, queries);
  const bar = progressBar('export', 0, 'graphs');
  try {
    const result = await exportGraphs(source, file, {
      includeSecrets: options.includeSecrets,
      onProgress: (done, total) => bar.update(done, total),
    });
    return { file, ...result };
  } finally {
    bar.stop();
  }
}

if (isMain(import.meta.url)) {
  quietOnClosedPipe();
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  (file === undefined
    ? Promise.reject(new ConfigError(`usage: npm run export -- FILE [--include-secrets]   (${EXPORT_HELP})`))
    : runExport(file, { includeSecrets: args.includes('--include-secrets') })
  ).then(
    (result) => console.log(JSON.stringify(result)),
    (error: Error) => {
      console.error(error instanceof ConfigError ? error.message : (error.stack ?? error.message));
      process.exit(1);
    },
  );
}
