import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { QueryBank, int, iri, list, str } from '../../../../src/core/queries/query-bank.js';
import { nth } from '../../../helpers/present.js';

describe('QueryBank.bind', () => {
  let dir: string;
  let bank: QueryBank;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rq-'));
    writeFileSync(join(dir, 'by-name.rq'), 'SELECT ?s WHERE { GRAPH <urn:g> { ?s <urn:name> $name } }\n');
    writeFileSync(join(dir, 'by-iri.rq'), 'SELECT ?o WHERE { GRAPH <urn:g> { $subject <urn:name> ?o } }\n');
    writeFileSync(join(dir, 'values.rq'), 'SELECT ?s WHERE { VALUES ?n { $names } GRAPH <urn:g> { ?s <urn:name> ?n } } LIMIT $limit\n');
    bank = new QueryBank(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const store = new oxigraph.Store();
  store.load('<urn:a> <urn:name> "alice" <urn:g> .\n<urn:b> <urn:name> "bob" <urn:g> .\n<urn:secret> <urn:name> "hidden" <urn:other> .\n', {
    format: 'application/n-quads',
  });
  const run = (q: string) => (store.query(q) as Map<string, { value: string }>[]).map((b) => nth([...b.values()], 0).value);

  it('binds a literal as one escaped term', () => {
    expect(run(bank.bind('by-name', { name: str('alice') }))).to.deep.equal(['urn:a']);
  });

  const injections = ['" } } UNION { GRAPH ?g { ?s ?p ?o } } #', '"\\" } UNION { ?s ?p ?o } #', 'alice"@en', 'x\n} '];
  for (const attempt of injections) {
    it(`keeps ${JSON.stringify(attempt)} inside the literal`, () => {
      const query = bank.bind('by-name', { name: str(attempt) });
      expect(run(query)).to.deep.equal([]);
    });
  }

  it('refuses IRIs that could break out of <...>', () => {
    for (const bad of ['urn:a> } UNION { ?s ?p ?o', 'relative', 'urn:a b', 'urn:a"x', 'urn:{x}']) {
      expect(() => bank.bind('by-iri', { subject: iri(bad) }), bad).to.throw(/IRI/);
    }
    expect(run(bank.bind('by-iri', { subject: iri('urn:b') }))).to.deep.equal(['bob']);
  });

  it('binds lists into VALUES and integers as numbers', () => {
    expect(run(bank.bind('values', { names: list([str('alice'), str('bob')]), limit: int(1) }))).to.have.length(1);
    expect(() => bank.bind('values', { names: list([]), limit: int(1.5) })).to.throw(/integer/);
  });

  it('refuses a query with an unbound parameter', () => {
    expect(() => bank.bind('by-name', {})).to.throw(/\$name/);
  });
});

describe('QueryBank includes', () => {
  const dirs: string[] = [];
  const bankOf = (files: Record<string, string>): QueryBank => {
    const dir = mkdtempSync(join(tmpdir(), 'rq-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return new QueryBank(dir);
  };
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('puts a fragment where a query includes it, for text() and bind() alike', () => {
    const bank = bankOf({
      'shared/named.rq-fragment': '  ?s <urn:name> $name .\n',
      'by-name.rq': 'SELECT ?s WHERE {\n  # include: shared/named\n}\n',
    });
    expect(bank.text('by-name')).to.equal('SELECT ?s WHERE {\n  ?s <urn:name> $name .\n}\n');
    expect(bank.bind('by-name', { name: str('alice') })).to.contain('?s <urn:name> "alice" .');
    // A fragment is not a query of its own.
    expect(() => bank.text('shared/named')).to.throw(/No query/);
  });

  it('fails at load when a query includes a fragment that is not there', () => {
    expect(() => bankOf({ 'q.rq': 'SELECT * WHERE {\n  # include: shared/missing\n}\n' })).to.throw(
      /q\.rq includes shared\/missing.*no sparql\/shared\/missing\.rq-fragment/,
    );
  });

  it('refuses a fragment that includes another', () => {
    expect(() =>
      bankOf({
        'a.rq-fragment': '# include: b\n',
        'b.rq-fragment': '?s ?p ?o .\n',
        'q.rq': 'SELECT * WHERE {\n# include: a\n}\n',
      }),
    ).to.throw(/includes another fragment/);
  });
});
