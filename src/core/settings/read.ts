import { ConfigError } from '../config-values.js';
import { settingNamed } from './table.js';

type Env = NodeJS.ProcessEnv;

/**
 * An integer setting: its row's default when unset or empty (or `fallback`, for a default the row
 * cannot hold because it is computed at start), refused below the row's bound.
 */
export function integerFrom(env: Env, name: string, fallback?: number): number {
  const row = settingNamed(name);
  const min = row.min ?? 0;
  const raw = env[name];
  if (raw === undefined || raw === '') {
    const value = fallback ?? row.default;
    if (typeof value !== 'number') throw new Error(`${name} has no integer default in the settings table`);
    return value;
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

/** A text setting as given, or its row's default when unset (an empty value stays empty: some readers tell them apart). */
export function textFrom(env: Env, name: string): string | undefined {
  const row = settingNamed(name);
  return env[name] ?? (typeof row.default === 'string' ? row.default : undefined);
}

/** A comma-separated list setting, trimmed and lower-cased, without empty entries. */
export function lowerCaseListFrom(env: Env, name: string): string[] {
  return (textFrom(env, name) ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
}

/** An on/off setting (on, true, 1 / off, false, 0); its row's default when unset or empty. */
export function onOffFrom(env: Env, name: string): boolean {
  const row = settingNamed(name);
  const raw = env[name];
  const value = raw === undefined || raw === '' ? row.default : raw;
  if (value === 'on' || value === 'true' || value === '1') return true;
  if (value === 'off' || value === 'false' || value === '0') return false;
  throw new ConfigError(`${name} must be on or off, got ${JSON.stringify(raw)}`);
}

/** An integer setting's default as the table holds it, for modules that name it as a constant. */
export function settingDefault(name: string): number {
  const value = settingNamed(name).default;
  if (typeof value !== 'number') throw new Error(`${name} has no integer default in the settings table`);
  return value;
}
