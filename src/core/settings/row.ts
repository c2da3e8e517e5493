/**
 * One environment variable the node reads: its name, the form of its value, its default and bounds,
 * one line of doc and the page that explains it. The rows are the one source of the configuration:
 * the area readers (src/**\/*-config.ts) take values through src/core/settings/read.ts, start-up refuses
 * DATASPACE_* names no row has, and docs/configuration.md is generated from them (npm run docs:config).
 */
export interface Setting {
  name: string;
  type: 'integer' | 'text' | 'on-off' | 'url' | 'list' | 'secret' | 'path';
  /** What an unset variable means; undefined when it is computed or means "off" (see `shown`). */
  default: number | string | undefined;
  /** Smallest value an integer setting accepts. */
  min?: number;
  /** The default as docs/configuration.md shows it, when the raw value says too little. */
  shown?: string;
  doc: string;
  /** The docs page (under docs/, or README.md) that explains the setting. */
  page: string;
}

type Extra = Pick<Setting, 'shown'>;

export const integer = (
  name: string,
  fallback: number | undefined,
  min: number,
  doc: string,
  page: string,
  extra: Extra = {},
): Setting => ({
  name,
  type: 'integer',
  default: fallback,
  min,
  doc,
  page,
  ...extra,
});

export const text = (
  name: string,
  type: Setting['type'],
  fallback: string | undefined,
  doc: string,
  page: string,
  extra: Extra = {},
): Setting => ({
  name,
  type,
  default: fallback,
  doc,
  page,
  ...extra,
});
