import { expect } from 'chai';
import { analyseQuery, QueryRefused } from '../../../../src/adapters/sparql-endpoint/query.js';
import { countRows, countTriples } from '../../../../src/adapters/sparql-endpoint/formats.js';

describe('SPARQL endpoint: reading a query', () => {
  it('tells the form and keeps a query whose LIMIT is within the cap as it was sent', () => {
    const text = 'SELECT * WHERE { ?s ?p ?o } LIMIT 10';
    expect(analyseQuery(text, 100)).to.deep.equal({ form: 'SELECT', text, from: undefined });
    expect(analyseQuery('ASK { ?s ?p ?o }', 100).form).to.equal('ASK');
    expect(analyseQuery('DESCRIBE <urn:x>', 100).form).to.equal('DESCRIBE');
  });

  it('caps a missing or larger LIMIT, keeping prefixes and OFFSET', () => {
    for (const text of [
      'PREFIX ex: <http://ex/> SELECT * WHERE { ?s ex:p ?o } OFFSET 3',
      'PREFIX ex: <http://ex/> CONSTRUCT { ?s ex:p ?o } WHERE { ?s ex:p ?o } LIMIT 1000',
    ]) {
      const capped = analyseQuery(text, 11).text;
      expect(capped).to.match(/LIMIT 11\b/);
      expect(analyseQuery(capped, 11).text).to.equal(capped);
    }
    expect(analyseQuery('SELECT * WHERE { ?s ?p ?o } OFFSET 3', 11).text).to.match(/OFFSET 3/);
  });

  it('reads FROM and FROM NAMED', () => {
    expect(analyseQuery('SELECT * FROM <urn:a> FROM NAMED <urn:b> WHERE { ?s ?p ?o }', 5).from).to.deep.equal({
      default: ['urn:a'],
      named: ['urn:b'],
    });
  });

  const refusals: [string, string, QueryRefused['reason']][] = [
    ['an update', 'INSERT DATA { <urn:a> <urn:b> <urn:c> }', 'update'],
    ['a graph management update', 'DROP ALL', 'update'],
    ['SERVICE', 'SELECT * WHERE { SERVICE <http://127.0.0.1/sparql> { ?s ?p ?o } }', 'service'],
    [
      'SERVICE inside a subquery and EXISTS',
      'SELECT * WHERE { ?s ?p ?o FILTER EXISTS { SELECT * WHERE { SERVICE SILENT <http://x/> { ?a ?b ?c } } } }',
      'service',
    ],
    ['text that is not SPARQL', 'SELECT ?s WHERE { ?s ?p }', 'syntax'],
  ];
  for (const [what, text, reason] of refusals) {
    it(`refuses ${what}`, () => {
      expect(() => analyseQuery(text, 5))
        .to.throw(QueryRefused)
        .with.property('reason', reason);
    });
  }

  it('counts rows of every result format and triples of N-Triples', () => {
    expect(countRows('{"head":{"vars":["s"]},"results":{"bindings":[{},{}]}}', 'application/sparql-results+json')).to.equal(2);
    expect(
      countRows(
        '<sparql><results><result></result><result></result><result></result></results></sparql>',
        'application/sparql-results+xml',
      ),
    ).to.equal(3);
    expect(countRows('?s\n<a>\n"x\\ny"\n', 'text/tab-separated-values')).to.equal(2);
    expect(countRows('s,o\r\na,"line one\r\nline two"\r\nb,c\r\n', 'text/csv')).to.equal(2);
    expect(countRows('s\r\n', 'text/csv')).to.equal(0);
    expect(countTriples('<a> <b> <c> .\n<a> <b> "x\\ny" .\n')).to.equal(2);
    expect(countTriples('<a> <b> <c> .')).to.equal(1);
    expect(countTriples('')).to.equal(0);
  });
});
