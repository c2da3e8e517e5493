import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-paths.js';

export const fixturesDir = join(projectRoot, 'test', 'fixtures');

export interface Fixture {
  name: string;
  path: string;
  json: unknown;
}

/** The payload corpus: test/fixtures/valid/*.json or test/fixtures/invalid/*.json, by name. */
export function readFixtures(kind: 'valid' | 'invalid'): Fixture[] {
  const dir = join(fixturesDir, kind);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((name) => {
      const path = join(dir, name);
      return { name, path, json: JSON.parse(readFileSync(path, 'utf8')) as unknown };
    });
}

export function readFixture(kind: 'valid' | 'invalid', name: string): unknown {
  return JSON.parse(readFileSync(join(fixturesDir, kind, name), 'utf8')) as unknown;
}
