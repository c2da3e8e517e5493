import { settingNamed } from './settings/table.js';

/** A setting that stops start-up: the message names the variable and what it must be. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * An integer environment setting ≥ `min`, or `fallback` when unset or empty. Readers take their
 * settings from the table (src/core/settings/read.ts); this form stays for code that names default and
 * bound itself, and still needs the variable to have a row, so that start-up accepts it.
 */
export function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  settingNamed(name);
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}
