import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../src/core/project-paths.js';
import { settingsTableMarkdown, withSettingsTable } from '../../../src/core/settings/docs-page.js';
import { SETTINGS } from '../../../src/core/settings/table.js';

describe('docs/configuration.md', () => {
  const page = readFileSync(join(projectRoot, 'docs', 'configuration.md'), 'utf8');

  it('holds the settings table as src/core/settings/ has it (npm run docs:config writes it)', () => {
    expect(page, 'run npm run docs:config').to.equal(withSettingsTable(page));
  });

  it('lists every variable once, in a table whose rows all have four cells', () => {
    const table = settingsTableMarkdown();
    for (const row of SETTINGS) expect(page.split(`| \`${row.name}\` |`).length - 1, row.name).to.equal(1);
    for (const line of table.split('\n').filter((l) => !l.startsWith('|---'))) expect(line.split(' | ').length, line).to.equal(4);
  });
});
