import { expect } from 'chai';
import sparqljs from 'sparqljs';
import { checkQueryText, countTriplePatterns, nestingDepth, QueryLimitExceeded } from '../../../../src/adapters/sparql-endpoint/guard.js';
import { FairQueue } from '../../../../src/core/util/fair-queue.js';

describe('SPARQL guard: nesting and triple patterns', () => {
  const depths: [string, number][] = [
    ['ASK { ?s ?p ?o }', 1],
    ['SELECT * WHERE { { ?s ?p ?o } OPTIONAL { ?s ?p [ ?q ?r ] } }', 3],
    ['SELECT * WHERE { ?s ?p ?o FILTER((1 + (2)) > 0) }', 4],
    ['SELECT * WHERE { ?s ?p "{{{{{" }', 1],
    ["SELECT * WHERE { ?s ?p '''((\n(''' }", 1],
    ['SELECT * WHERE { ?s <http://x/(((> ?o } # {{{{ ((((', 1],
    ['SELECT * WHERE { ?s ?p ?o FILTER(?o < 3 && ?o > (1)) }', 3],
    ['SELECT * WHERE { ?s ?p "a \\" {{" }', 1],
  ];
  for (const [text, depth] of depths) {
    it(`${JSON.stringify(text)} nests ${depth} deep`, () => expect(nestingDepth(text)).to.equal(depth));
  }

  it('refuses size and depth with the variable named', () => {
    const limits = { maxQueryBytes: 100, maxDepth: 3, maxTriplePatterns: 10 };
    expect(() => checkQueryText(`ASK { ?s ?p "${'é'.repeat(60)}" }`, limits)).to.throw(
      QueryLimitExceeded,
      /DATASPACE_SPARQL_MAX_QUERY_BYTES/,
    );
    expect(() => checkQueryText('ASK { { { { ?s ?p ?o } } } }', limits)).to.throw(
      QueryLimitExceeded,
      /4 levels.*DATASPACE_SPARQL_MAX_DEPTH/,
    );
    expect(() => checkQueryText('ASK { { { ?s ?p ?o } } }', limits)).not.to.throw();
  });

  it('counts triple patterns in BGPs, paths, templates, subqueries and EXISTS', () => {
    const parse = (q: string) => new sparqljs.Parser().parse(q);
    expect(countTriplePatterns(parse('SELECT * WHERE { ?s ?p ?o ; ?q ?r . ?o <urn:a>/<urn:b> ?x }'))).to.equal(3);
    expect(countTriplePatterns(parse('CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o FILTER EXISTS { ?o ?q ?r } }'))).to.equal(3);
    expect(countTriplePatterns(parse('SELECT * WHERE { { SELECT ?s WHERE { ?s ?p ?o } } OPTIONAL { ?s ?q ?r } }'))).to.equal(2);
  });
});

describe('FairQueue: round-robin between owners', () => {
  it('takes one job per owner in turn, whatever the arrival order', () => {
    const q = new FairQueue<string>(10, 100);
    for (const job of ['a1', 'a2', 'a3', 'a4']) q.push('a', job);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('b', 'b2');
    const order: string[] = [];
    for (let job = q.shift(); job; job = q.shift()) order.push(job);
    expect(order).to.deep.equal(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('caps each owner and the total, and removes a job that gave up', () => {
    const q = new FairQueue<string>(2, 3);
    expect(q.push('a', 'a1')).to.equal(undefined);
    expect(q.push('a', 'a2')).to.equal(undefined);
    expect(q.push('a', 'a3')).to.deep.equal({ refused: 'owner', waiting: 2 });
    expect(q.push('b', 'b1')).to.equal(undefined);
    expect(q.push('c', 'c1')).to.deep.equal({ refused: 'total', waiting: 3 });
    expect(q.remove('b', 'b1')).to.equal(true);
    expect(q.remove('b', 'b1')).to.equal(false);
    expect(q.size).to.equal(2);
    expect([q.shift(), q.shift(), q.shift()]).to.deep.equal(['a1', 'a2', undefined]);
  });
});
