import { NODE_SETTINGS } from './node-settings.js';
import type { Setting } from './row.js';
import { STORE_SETTINGS } from './store-settings.js';
import { TRAFFIC_SETTINGS } from './traffic-settings.js';

export type { Setting };

/** Every environment variable the node reads, in the order docs/configuration.md lists them. */
export const SETTINGS: readonly Setting[] = [...NODE_SETTINGS, ...STORE_SETTINGS, ...TRAFFIC_SETTINGS];

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/** The row of a variable; a name without one is a mistake in the code, caught by the first test that reads it. */
export function settingNamed(name: string): Setting {
  const row = BY_NAME.get(name);
  if (row === undefined) throw new Error(`${name} has no row in the settings table (src/core/settings/)`);
  return row;
}

export const settingNames = (): string[] => [...BY_NAME.keys()];
