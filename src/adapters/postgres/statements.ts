import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../core/project-paths.js';

/** The replicas' SQL: deploy/postgres/, the schema and one statement a file, as the node's SPARQL is in sparql/. */
export const POSTGRES_DIR = join(projectRoot, 'deploy', 'postgres');

const texts = new Map<string, string>();

/** The text of deploy/postgres/<name>.sql, read once; values are passed apart ($1, $2), never spliced in. */
export function statement(name: string): string {
  let text = texts.get(name);
  if (text === undefined) texts.set(name, (text = readFileSync(join(POSTGRES_DIR, `${name}.sql`), 'utf8')));
  return text;
}
