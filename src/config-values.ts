/** A setting that stops start-up: the message names the variable and what it must be. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** An integer environment setting ≥ `min`, or `fallback` when unset or empty. */
export function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}
