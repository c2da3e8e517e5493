import { closest } from 'fastest-levenshtein';
import { ConfigError } from '../config-values.js';
import { settingNames } from './table.js';

/** Variables of the test harness (test/helpers/external-store.ts): child processes inherit them, the node never reads them. */
const HARNESS_PREFIX = 'DATASPACE_TEST_';

/**
 * A DATASPACE_* variable no row names is refused at start: a misspelt setting would otherwise be
 * silently ignored and the node run on the default the operator meant to change. The message names
 * the nearest known name, as edit distance ranks them.
 */
export function refuseUnknownSettings(env: NodeJS.ProcessEnv): void {
  const known = settingNames();
  const names = new Set(known);
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('DATASPACE_') || name.startsWith(HARNESS_PREFIX) || names.has(name)) continue;
    throw new ConfigError(`${name} is not a setting of this node; did you mean ${closest(name, known)}? (docs/configuration.md)`);
  }
}
