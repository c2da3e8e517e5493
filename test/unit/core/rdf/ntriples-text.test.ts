import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { termToString } from '../../../../src/core/rdf/terms.js';
import oxigraph from 'oxigraph';
import { triplesFromNTriples, triplesFromTsv } from '../../../../src/core/rdf/ntriples-text.js';
import { nth } from '../../../helpers/present.js';

const lines = (quads: ReturnType<typeof triplesFromNTriples>) =>
  quads?.map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)} ${q.graph.termType}`);

describe('rdf: N-Triples text read as triples', () => {
  it('reads IRIs, blank nodes and every literal form, escapes undone, into the default graph', () => {
    const text = [
      '<urn:s> <urn:p> <urn:o> .',
      '_:b0 <urn:p> _:b1 .',
      '<urn:s> <urn:p> "plain" .',
      '<urn:s> <urn:p> "bonjour"@fr-BE .',
      '<urn:s> <urn:p> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .',
      '<urn:s>\t<urn:p>\t"q\\"uote\\\\ \\n\\t \\u00e9 \\U0001F600"\t.',
      '<urn:s\\u0041> <urn:p> "x" .',
      '<urn:s> <urn:p> "it\\\'s \\u00e9" .',
      '<urn:s> <urn:p> "raw\ttab \\"q\\"" .',
      '',
    ].join('\n');
    const quads = triplesFromNTriples(text)!;
    expect(lines(quads)).to.deep.equal([
      '<urn:s> <urn:p> <urn:o> DefaultGraph',
      '_:b0 <urn:p> _:b1 DefaultGraph',
      '<urn:s> <urn:p> "plain" DefaultGraph',
      '<urn:s> <urn:p> "bonjour"@fr-be DefaultGraph',
      '<urn:s> <urn:p> "42"^^<http://www.w3.org/2001/XMLSchema#integer> DefaultGraph',
      '<urn:s> <urn:p> "q\\"uote\\\\ \\n\\t é 😀" DefaultGraph',
      '<urn:sA> <urn:p> "x" DefaultGraph',
      '<urn:s> <urn:p> "it\'s é" DefaultGraph',
      '<urn:s> <urn:p> "raw\\ttab \\"q\\"" DefaultGraph',
    ]);
    expect(nth(quads, 5).object.value).to.equal('q"uote\\ \n\t é 😀');
    expect(nth(quads, 7).object.value).to.equal("it's é");
    expect(nth(quads, 8).object.value).to.equal('raw\ttab "q"');
    expect(nth(quads, 1).subject).to.include({ termType: 'BlankNode', value: 'b0' });
    expect(nth(quads, 3).object).to.include({ language: 'fr-be' });
  });

  it('reads nothing from text with a line it cannot read: a triple term, a comment, a cut line', () => {
    for (const line of ['<urn:s> <urn:p> <<( <urn:a> <urn:b> <urn:c> )>> .', '# comment', '<urn:s> <urn:p> "cut']) {
      expect(triplesFromNTriples(`<urn:s> <urn:p> <urn:o> .\n${line}\n`), line).to.equal(undefined);
    }
  });

  it('gives terms that do not keep the text they were read from alive', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const padding = `<urn:pad> <urn:p> "${'x'.repeat(20_000)}" .\n`;
    gc();
    const before = process.memoryUsage().heapUsed;
    // 500 answers of 20 kB each; one term of each kept, as a cache keeps a graph's name.
    const kept = Array.from(
      { length: 500 },
      (_, i) =>
        triplesFromNTriples(`${padding}<urn:uuid:graph-${i}-0000-4000-8000-000000000000> <urn:p> "literal ${i} long enough" .\n`)![1],
    );
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept).to.have.length(500);
    expect(grown, `${grown} bytes`).to.be.below(2_000_000);
  });

  it('reads a SELECT ?s ?p ?o answered as TSV by Oxigraph as the CONSTRUCT of the same pattern reads', () => {
    const XSD = 'http://www.w3.org/2001/XMLSchema#';
    const objects = [
      '"22287"^^<' + XSD + 'integer>',
      '"-5"^^<' + XSD + 'integer>',
      '"007"^^<' + XSD + 'integer>',
      '"1.50"^^<' + XSD + 'decimal>',
      '"1.0E5"^^<' + XSD + 'double>',
      '"INF"^^<' + XSD + 'double>',
      '"true"^^<' + XSD + 'boolean>',
      '"1"^^<' + XSD + 'boolean>',
      '"2026-11-24T10:00:00Z"^^<' + XSD + 'dateTime>',
      '"plain"',
      '"bonjour"@fr',
      '"tab\\t \\"q\\" \\u00e9"',
      '"{\\"json\\":[1,2]}"',
      '<urn:o>',
      '_:b1',
    ];
    const store = new oxigraph.Store();
    store.load(objects.map((o, i) => `<urn:s${i}> <urn:p> ${o} <urn:g> .\n`).join(''), { format: 'application/n-quads' });
    const where = 'WHERE { GRAPH <urn:g> { ?s ?p ?o } }';
    const tsv = store.query(`SELECT ?s ?p ?o ${where}`, { results_format: 'text/tab-separated-values' }) as string;
    const constructed = triplesFromNTriples(
      store.query(`CONSTRUCT { ?s ?p ?o } ${where}`, { results_format: 'application/n-triples' }) as string,
    )!;
    // Blank node labels differ between answers; everything else must be the same term.
    const sorted = (quads: ReturnType<typeof triplesFromNTriples>) =>
      lines(quads)!
        .map((l) => l.replace(/_:\S+/g, '_:b'))
        .sort();
    expect(sorted(triplesFromTsv(tsv))).to.deep.equal(sorted(constructed));
    expect(constructed).to.have.length(objects.length);
    // The short forms came back with their datatypes (the answer had some).
    expect(tsv).to.match(/\t22287\n|\t22287$/m);
    const seq = triplesFromTsv(tsv)!.find((q) => q.object.value === '22287')!;
    expect(seq.object).to.include({ termType: 'Literal' });
    expect((seq.object as { datatype: { value: string } }).datatype.value).to.equal(`${XSD}integer`);
    // No rows, other columns, an unbound variable: nothing read, or nothing it reads.
    expect(triplesFromTsv('?s\t?p\t?o\n')).to.deep.equal([]);
    expect(triplesFromTsv('?s\t?p\t?o')).to.deep.equal([]);
    expect(triplesFromTsv('?x\t?p\t?o\n<urn:s>\t<urn:p>\t<urn:o>\n')).to.equal(undefined);
    expect(triplesFromTsv('?s\t?p\t?o\n<urn:s>\t<urn:p>\t\n')).to.equal(undefined);
  });
});
