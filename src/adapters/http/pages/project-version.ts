import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../core/project-paths.js';

/** package.json's version: the API document's info.version. */
export function projectVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}
