import { expect } from 'chai';
import { Parser, type Quad } from 'n3';
import { addQuadLines, SKOLEM_PREFIX, SparqlStoreError } from '../../../../src/adapters/sparql-server/sparql-server-text.js';
import { only, present } from '../../../helpers/present.js';

const G = '<urn:x:g>';

/** The lines addQuadLines wrote, read back as quads with skolems renamed in order of appearance. */
function written(nquads: string): { graph: string; quads: string[] }[] {
  const byGraph = new Map<string, string[]>();
  addQuadLines(nquads, byGraph);
  const names = new Map<string, string>();
  const name = (t: Quad['subject'] | Quad['object']): string => {
    if (t.termType !== 'NamedNode' || !t.value.startsWith(SKOLEM_PREFIX))
      return t.termType === 'Literal' ? JSON.stringify([t.value, t.language, t.datatype.value]) : t.value;
    if (!names.has(t.value)) names.set(t.value, `skolem${names.size}`);
    return names.get(t.value)!;
  };
  return [...byGraph].map(([graph, lines]) => ({
    graph,
    quads: new Parser({ format: 'N-Triples' })
      .parse(lines.join('\n'))
      .map((q) => `${name(q.subject)} ${q.predicate.value} ${name(q.object)}`),
  }));
}

/** The same, from n3's own reading of the N-Quads (what the parser path writes). */
function expected(nquads: string): { graph: string; quads: string[] }[] {
  const byGraph = new Map<string, string[]>();
  const names = new Map<string, string>();
  const name = (t: Quad['subject'] | Quad['object']): string => {
    if (t.termType !== 'BlankNode') return t.termType === 'Literal' ? JSON.stringify([t.value, t.language, t.datatype.value]) : t.value;
    if (!names.has(t.value)) names.set(t.value, `skolem${names.size}`);
    return names.get(t.value)!;
  };
  for (const q of new Parser({ format: 'N-Quads' }).parse(nquads)) {
    if (!byGraph.has(q.graph.value)) byGraph.set(q.graph.value, []);
    byGraph.get(q.graph.value)!.push(`${name(q.subject)} ${q.predicate.value} ${name(q.object)}`);
  }
  return [...byGraph].map(([graph, quads]) => ({ graph, quads }));
}

describe('SPARQL store: insert lines (copied when they match, parsed otherwise)', () => {
  // Each row: N-Quads text of one insert. Both paths must write the same quads (skolems in order).
  const rows: [string, string][] = [
    ['IRIs and blank nodes', `<urn:a> <urn:p> _:b0 ${G} .\n_:b0 <urn:q> _:b1 ${G} .\n_:b1 <urn:r> <urn:c> <urn:x:h> .\n`],
    [
      'literals: plain, language, datatype, escapes',
      `<urn:a> <urn:p> "x \\"y\\" \\\\ z\\n\\t" ${G} .\n<urn:a> <urn:p> "chat"@fr-BE ${G} .\n<urn:a> <urn:p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> ${G} .\n<urn:a> <urn:p> "é ☃ 𝄞" ${G} .`,
    ],
    ['a \\u escape (parsed: a server decodes it before parsing)', `<urn:a> <urn:p> "q\\u0022uote" ${G} .\n<urn:a> <urn:p> _:b0 ${G} .`],
    ['tabs and double spaces (parsed)', `<urn:a>\t<urn:p>  "x" ${G} .\n_:b0 <urn:p> _:b0 ${G} .`],
    ['a blank node label with a dot inside', `_:a.b <urn:p> _:a.b ${G} .`],
  ];
  for (const [what, nquads] of rows) {
    it(`writes what the parser reads: ${what}`, () => {
      expect(written(nquads)).to.deep.equal(expected(nquads));
    });
  }

  it('never lets a \\u escape or a raw quote reach the update unparsed', () => {
    const byGraph = new Map<string, string[]>();
    addQuadLines(`<urn:a> <urn:p> "a\\u0022 } ; DROP ALL ; INSERT DATA { <urn:x> <urn:y> \\u0022z" ${G} .`, byGraph);
    const line = only(present(byGraph.get('urn:x:g')));
    expect(line).to.not.include('\\u0022');
    const quad = only(new Parser({ format: 'N-Triples' }).parse(line));
    expect(quad.object.value).to.equal('a" } ; DROP ALL ; INSERT DATA { <urn:x> <urn:y> "z');
  });

  it('refuses a quad without a graph, as the parser path did', () => {
    expect(() => addQuadLines('<urn:a> <urn:p> <urn:o> .\n', new Map())).to.throw(SparqlStoreError, /name its graph/);
  });

  it('gives each insert its own blank nodes', () => {
    const byGraph = new Map<string, string[]>();
    addQuadLines(`_:b0 <urn:p> "1" ${G} .`, byGraph);
    addQuadLines(`_:b0 <urn:p> "2" ${G} .`, byGraph);
    const [a, b] = byGraph.get('urn:x:g')!.map((l) => l.split(' ')[0]);
    expect(a).to.not.equal(b);
  });
});
