import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sparqlDir } from '../../../src/project-paths.js';

/**
 * The coverage rule is written twice in SPARQL: as a check of one consignment (coverage-check) and as
 * an enumeration of every readable one (coverage-enumerate). Each form is pasted into several queries;
 * they must stay letter for letter the same, and every query reading consignment data must carry one.
 */
function queries(dir: string): { name: string; text: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return queries(path);
    return entry.endsWith('.rq') ? [{ name: relative(sparqlDir, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

function block(text: string, kind: string): string | undefined {
  const match = new RegExp(`# ${kind}: begin\\n([\\s\\S]*?)# ${kind}: end`).exec(text);
  return match?.[1];
}

describe('coverage blocks in sparql/', () => {
  const all = queries(sparqlDir);

  for (const kind of ['coverage-check', 'coverage-enumerate']) {
    it(`has one ${kind} text, the same in every query that uses it`, () => {
      const users = all.filter((q) => q.text.includes(`# ${kind}: begin`));
      expect(users.length).to.be.at.least(2);
      const texts = new Set(users.map((q) => block(q.text, kind)));
      expect(texts.size, users.map((q) => q.name).join(', ')).to.equal(1);
    });
  }

  it('puts a coverage block in every view query that reads consignment records or their graphs', () => {
    const readers = ['views/find-consignment.rq', 'views/visible-consignments.rq', 'views/visible-documents.rq', 'views/list-consignments.rq', 'views/list-documents.rq', 'views/consignment-graphs.rq', 'policy/visible-graphs.rq'];
    for (const name of readers) {
      const q = all.find((x) => x.name === name);
      expect(q, name).to.not.equal(undefined);
      expect(block(q!.text, 'coverage-check') ?? block(q!.text, 'coverage-enumerate'), name).to.be.a('string');
    }
  });

  it('never orders a query that checks coverage with FILTER EXISTS (Virtuoso 7.2 then finds every EXISTS true)', () => {
    for (const q of all.filter((x) => block(x.text, 'coverage-check'))) {
      expect(/^\s*ORDER\s+BY/im.test(q.text), q.name).to.equal(false);
    }
  });

  it('binds the principal only as $org, $role, $countries and $locations inside the blocks', () => {
    for (const q of all) {
      for (const kind of ['coverage-check', 'coverage-enumerate']) {
        const text = block(q.text, kind);
        if (!text) continue;
        const params = new Set([...text.matchAll(/\$([A-Za-z_]+)/g)].map((m) => m[1]));
        expect([...params].sort(), q.name).to.deep.equal(['countries', 'locations', 'org', 'role']);
      }
    }
  });
});
