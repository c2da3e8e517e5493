import { expect } from 'chai';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERROR_NAMES, TASK_ERROR_NAMES } from '../../../src/core/error-names.js';
import { COMPONENT_SCHEMAS } from '../../../src/adapters/http/openapi/schemas.js';
import { projectRoot } from '../../../src/core/project-paths.js';

/** Every .ts file under src/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('error names: one table, in the OpenAPI document and the docs (spec 7.4, issue 35)', () => {
  const src = sources(resolve(projectRoot, 'src')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const listed = new Set(ERROR_NAMES.map((e) => `${e.status} ${e.name}`));

  it('lists every status and name the source answers with', () => {
    const thrown = new Set<string>();
    for (const { text } of src) {
      for (const m of text.matchAll(/(?:super|new HttpError)\((\d{3}), '([A-Za-z]+)'/g)) thrown.add(`${m[1]} ${m[2]}`);
      for (const m of text.matchAll(/status\((\d{3})\)\s*\.json\(\{ name: '([A-Za-z]+)'/g)) thrown.add(`${m[1]} ${m[2]}`);
    }
    expect(thrown.size).to.be.greaterThan(10);
    expect(
      [...thrown].filter((t) => !listed.has(t)),
      'thrown but not in src/core/error-names.ts',
    ).to.deep.equal([]);
  });

  it('lists every task error name a handler fails with', () => {
    const names = new Set<string>();
    for (const { text } of src) for (const m of text.matchAll(/(?:failure\([a-zA-Z'-]+, |fail\()'([A-Za-z]+)'/g)) names.add(m[1]!);
    expect([...names].sort()).to.deep.equal(TASK_ERROR_NAMES.map((e) => e.name).sort());
  });

  it('gives the OpenAPI Error schema every name, and its description every status', () => {
    const schema = COMPONENT_SCHEMAS.Error as { description: string; properties: { name: { enum: string[] } } };
    expect(schema.properties.name.enum).to.have.members([...new Set(ERROR_NAMES.map((e) => e.name))]);
    for (const e of ERROR_NAMES) expect(schema.description).to.contain(`| ${e.status} | ${e.name} |`);
    for (const e of TASK_ERROR_NAMES) expect(schema.description).to.contain(e.name);
  });

  it('is the table docs/decisions.md shows', () => {
    const doc = readFileSync(resolve(projectRoot, 'docs', 'decisions.md'), 'utf8');
    for (const e of ERROR_NAMES) expect(doc, `${e.status} ${e.name}`).to.contain(`| ${e.status} | \`${e.name}\` |`);
    for (const e of TASK_ERROR_NAMES) expect(doc, e.name).to.contain(`\`${e.name}\``);
  });
});
