import type { Setting } from './row.js';
import { SETTINGS } from './table.js';

/** The part of docs/configuration.md the table owns lies between these lines (npm run docs:config writes it). */
export const PAGE_START = '<!-- settings table: generated from src/core/settings/ by `npm run docs:config`; edit the rows there -->';
export const PAGE_END = '<!-- end of settings table -->';

function shownDefault(row: Setting): string {
  if (row.shown !== undefined) return row.shown;
  return row.default === undefined ? '–' : `\`${String(row.default)}\``;
}

function accepts(row: Setting): string {
  if (row.type === 'integer') return `integer ≥ ${row.min ?? 0}`;
  if (row.type === 'on-off') return '`on` or `off`';
  return row.type;
}

function link(page: string): string {
  const [file = '', anchor] = page.split('#');
  if (file === 'configuration.md') return anchor ? ` ([below](#${anchor}))` : '';
  const target = file === 'README.md' ? '../README.md' : file;
  return ` ([${file.replace(/\.md$/, '')}](${target}${anchor ? `#${anchor}` : ''}))`;
}

/** The settings table as markdown, one row per variable in the table's order. */
export function settingsTableMarkdown(rows: readonly Setting[] = SETTINGS): string {
  const lines = ['| Variable | Default | Accepts | Meaning |', '|---|---|---|---|'];
  for (const row of rows) lines.push(`| \`${row.name}\` | ${shownDefault(row)} | ${accepts(row)} | ${row.doc}${link(row.page)} |`);
  return lines.join('\n');
}

/** The page with its generated part replaced by the table as it is now. */
export function withSettingsTable(page: string): string {
  const start = page.indexOf(PAGE_START);
  const end = page.indexOf(PAGE_END);
  if (start < 0 || end < start) throw new Error(`docs/configuration.md lacks the lines ${PAGE_START} … ${PAGE_END}`);
  return `${page.slice(0, start + PAGE_START.length)}\n\n${settingsTableMarkdown()}\n\n${page.slice(end)}`;
}
