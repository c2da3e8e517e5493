import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../src/core/project-paths.js';

/**
 * docs/architecture.md is the map of the code: its followers table must be the block of node.ts that
 * wires the change feed, and every step of its tables must name files that exist. doc-paths.test.ts
 * checks every path of every page; this holds the map's tables to the code they describe.
 */

const page = readFileSync(join(projectRoot, 'docs', 'architecture.md'), 'utf8');
const node = readFileSync(join(projectRoot, 'src', 'node.ts'), 'utf8');

/** The rows of the markdown table that follows `heading` (a line the page holds), as cells. */
function tableAfter(heading: string): string[][] {
  const at = page.indexOf(heading);
  expect(at, `the page holds "${heading}"`).to.be.at.least(0);
  const lines = page.slice(at).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const codeIn = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/architecture.md is the map of the code', () => {
  it("lists the change feed's followers as src/node.ts wires them, in that order", () => {
    const wired = [...node.matchAll(/feed\.follow\('([^']+)'/g)].map((m) => m[1]!);
    expect(wired.length, 'followers wired in src/node.ts').to.be.at.least(1);
    const listed = tableAfter('**Followers, in the order each commit reaches them**').map((row) => codeIn(row[1]!)[0]);
    expect(listed).to.deep.equal(wired);
  });

  it("names each follower's file, and the file exists", () => {
    for (const row of tableAfter('**Followers, in the order each commit reaches them**')) {
      const files = codeIn(row[3]!);
      expect(files, `a file for ${row[1]}`).to.have.length.at.least(1);
      for (const file of files) expect(existsSync(join(projectRoot, file)), file).to.equal(true);
    }
  });

  it('names the marks of the change feed that src/node.ts sets', () => {
    for (const [, mark] of node.matchAll(/feed\.afterPublished\('([^']+)'/g)) expect(page).to.include(`\`${mark}\``);
  });

  for (const heading of ['## A Create, step by step', '## A read view, step by step']) {
    it(`${heading.slice(3)}: every step names files that exist`, () => {
      expect(page, 'docs/architecture.md').to.include(heading);
      for (const row of tableAfter(heading)) {
        const files = codeIn(row.at(-1)!);
        expect(files, `files of step ${row[0]}`).to.have.length.at.least(1);
        for (const file of files) expect(existsSync(join(projectRoot, file)), file).to.equal(true);
      }
    });
  }
});
