import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';
import { withSettingsTable } from '../src/core/settings/docs-page.js';

// Writes the settings table into docs/configuration.md (test/unit/docs/configuration-page.test.ts fails until it is run).
const path = join(projectRoot, 'docs', 'configuration.md');
const before = readFileSync(path, 'utf8');
const after = withSettingsTable(before);
writeFileSync(path, after);
console.log(before === after ? 'docs/configuration.md was up to date' : 'docs/configuration.md rewritten from src/core/settings/');
