import { expect } from 'chai';
import { negotiate, offeredList } from '../../../../src/adapters/http/negotiate.js';
import { JSONLD_EXPANDED, RDF_FORMATS } from '../../../../src/core/views/rdf-formats.js';

const OFFERS = [{ mediaType: 'application/json' }, ...RDF_FORMATS];
const chosen = (accept: string | undefined): string | undefined => {
  const offer = negotiate(accept, OFFERS);
  return offer && ('syntax' in offer ? offer.syntax : offer.mediaType);
};

describe('negotiate', () => {
  // One row per Accept header a real client sends → the representation it must get.
  const table: [string | undefined, string | undefined][] = [
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['text/turtle', 'turtle'],
    ['text/turtle; charset=utf-8', 'turtle'],
    ['application/x-turtle', 'turtle'],
    ['application/trig', 'trig'],
    ['application/x-trig', 'trig'],
    ['application/n-triples', 'ntriples'],
    ['application/n-quads', 'nquads'],
    ['text/x-nquads', 'nquads'],
    ['application/rdf+xml', 'rdfxml'],
    ['application/ld+json', 'jsonld'],
    [`application/ld+json; profile="${JSONLD_EXPANDED}"`, 'jsonld-expanded'],
    // A profile list asks for one document in all the forms it names (JSON-LD 1.1 §9.3); the node writes one form at a time.
    [`application/ld+json;profile="http://www.w3.org/ns/json-ld#flattened ${JSONLD_EXPANDED}"`, undefined],
    ['application/ld+json; profile="http://example.org/other"', undefined],
    // rdflib's default Accept: Turtle preferred, RDF/XML next.
    ['application/rdf+xml;q=0.9, text/turtle, */*;q=0.1', 'turtle'],
    // rapper: RDF/XML first among equals (client order decides a tie).
    ['application/rdf+xml, text/turtle', 'rdfxml'],
    ['text/html', undefined],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'application/json'],
    ['text/turtle;q=0, application/n-triples;q=0.5', 'ntriples'],
    ['application/*', 'application/json'],
    ['text/*', 'turtle'],
    ['text/turtle; foo=bar', undefined],
    ['text/turtle; charset=UTF-8', 'turtle'],
    ['text/turtle; charset=iso-8859-1', undefined],
    ['text/turtle; charset=iso-8859-1, application/n-triples;q=0.5', 'ntriples'],
    ['', 'application/json'],
    ['not a media type', undefined],
    ['text/x-nquads;q=0.9, application/x-trig', 'trig'],
    // Jena's default for a dataset: TriG preferred, N-Quads next, then anything.
    ['application/trig,application/n-quads;q=0.9,text/turtle;q=0.8,*/*;q=0.1', 'trig'],
  ];
  for (const [accept, expected] of table) {
    it(`${accept ?? '(no Accept)'} → ${expected ?? '406'}`, () => {
      expect(chosen(accept)).to.equal(expected);
    });
  }

  it('reads quoted parameters with commas and semicolons inside', () => {
    expect(chosen('application/ld+json; profile="a,b;c", text/turtle;q=0.5')).to.equal('turtle');
    expect(negotiate('application/x; profile="a,b;c"', [{ mediaType: 'application/x', profile: 'a,b;c' }])?.profile).to.equal('a,b;c');
  });

  it('lists every offer for a 406, with the JSON-LD profiles', () => {
    const list = offeredList(OFFERS);
    for (const type of [
      'application/json',
      'text/turtle',
      'application/trig',
      'application/n-triples',
      'application/n-quads',
      'application/rdf+xml',
    ])
      expect(list).to.include(type);
    expect(list).to.include(`application/ld+json; profile="${JSONLD_EXPANDED}"`);
  });
});
