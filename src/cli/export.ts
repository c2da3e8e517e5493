import { ConfigError, readConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { QueryBank } from '../queries/query-bank.js';
import { embeddedSource, exportGraphs, sparqlSource } from '../store/backup.js';
import { openEmbeddedStore } from '../store/recovery.js';
import { SparqlStore } from '../store/sparql-store.js';

/**
 * npm run export -- FILE [--include-secrets]: everything the node holds (data graphs, metadata, policies,
 * organisations, users with their password hashes, activity log, outbox) as N-Quads, or TriG when FILE
 * ends in .trig. Reads the data dir without changing it, so it can run beside the node. Notification
 * secrets are left out unless --include-secrets; document files stay in DATA_DIR/blobs (copy that folder).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new ConfigError('usage: npm run export -- FILE [--include-secrets]   (FILE ending in .trig writes TriG, else N-Quads)');
  const config = readConfig();
  const logger = createLogger(process.env.DATASPACE_LOG ?? 'warn');
  const queries = new QueryBank();
  const source = config.store.kind === 'sparql'
    ? sparqlSource(new SparqlStore(config.store.sparql!), queries)
    : embeddedSource(openEmbeddedStore(config.dataDir, false, logger, { readOnly: true }).store, queries);
  const result = await exportGraphs(source, file, { includeSecrets: args.includes('--include-secrets') });
  console.log(JSON.stringify({ file, ...result }));
}

main().catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : error.stack ?? error.message);
  process.exit(1);
});
