import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sparqlDir } from '../../../../src/core/project-paths.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';

/**
 * The coverage rule is written once in SPARQL, in two forms: a check of one consignment
 * (policy/coverage-check.rq-fragment) and an enumeration of every readable one
 * (policy/coverage-enumerate.rq-fragment). Queries include them by name; none carries a copy.
 */
function files(dir: string, ext: string): { name: string; text: string }[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return files(path, ext);
    return entry.endsWith(ext) ? [{ name: relative(sparqlDir, path).replace(/\\/g, '/'), text: readFileSync(path, 'utf8') }] : [];
  });
}

const includes = (text: string, fragment: string) => new RegExp(`^\\s*# include: policy/${fragment}\\s*$`, 'm').test(text);

describe('coverage fragments in sparql/', () => {
  const all = files(sparqlDir, '.rq');
  const bank = new QueryBank();

  it('puts the rule, by include, in every view query that reads consignment records or their graphs', () => {
    const readers = [
      'views/find-consignment.rq',
      'views/visible-consignments.rq',
      'views/visible-documents.rq',
      'views/list-consignments.rq',
      'views/list-documents.rq',
      'views/consignment-graphs.rq',
      'policy/visible-graphs.rq',
    ];
    for (const name of readers) {
      const q = all.find((x) => x.name === name);
      expect(q, name).to.not.equal(undefined);
      expect(includes(q!.text, 'coverage-check') || includes(q!.text, 'coverage-enumerate'), name).to.equal(true);
    }
  });

  it('keeps the rule in the fragments only: no query spells out a role constraint of its own', () => {
    // policy/all-policies.rq reads every constraint for the rule in code; it matches none by role itself.
    const spelled = all.filter((q) => /odrl:leftOperand\s+svc:assigneeRole/.test(q.text)).map((q) => q.name);
    expect(spelled).to.deep.equal([]);
    expect(
      files(sparqlDir, '.rq-fragment')
        .map((f) => f.name)
        .filter((n) => n.includes('coverage'))
        .sort(),
    ).to.deep.equal(['policy/coverage-check.rq-fragment', 'policy/coverage-enumerate.rq-fragment']);
  });

  it('never orders a query that checks coverage with FILTER EXISTS (Virtuoso 7.2 then finds every EXISTS true)', () => {
    for (const q of all.filter((x) => includes(x.text, 'coverage-check'))) {
      const expanded = bank.text(q.name.replace(/\.rq$/, ''));
      expect(/^\s*ORDER\s+BY/im.test(expanded), q.name).to.equal(false);
    }
  });

  it('binds the principal only as $org, $role, $countries and $locations inside the fragments', () => {
    for (const fragment of files(sparqlDir, '.rq-fragment').filter((f) => f.name.includes('coverage'))) {
      const params = new Set([...fragment.text.matchAll(/\$([A-Za-z_]+)/g)].map((m) => m[1]));
      expect([...params].sort(), fragment.name).to.deep.equal(['countries', 'locations', 'org', 'role']);
    }
  });
});
