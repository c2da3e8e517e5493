import { expect } from 'chai';
import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { decodeQuads, encodeQuads } from '../../../../src/core/rdf/quad-wire.js';
import { documentLoader } from '../../../../src/core/rdf/document-loader.js';
import { readFixtures } from '../../../helpers/fixtures.js';

const toRdf = async (input: unknown): Promise<Quad[]> =>
  (await jsonld.toRDF(input as jsonld.JsonLdDocument, { documentLoader: documentLoader as never } as never)) as unknown as Quad[];

describe('quad wire form (quads between threads as a flat string array)', () => {
  it("gives back jsonld.js's quads exactly, for every valid fixture", async () => {
    let quads = 0;
    for (const { name, json } of readFixtures('valid')) {
      const original = await toRdf(json);
      const wire = encodeQuads(original);
      expect(wire, name).to.not.equal(undefined);
      expect(decodeQuads(structuredClone(wire!)), name).to.deep.equal(original);
      quads += original.length;
    }
    expect(quads).to.be.greaterThan(100);
  });

  it('keeps blank nodes, language tags, named graphs, empty and tag-like lexical forms apart', () => {
    const iri = (value: string) => ({ termType: 'NamedNode', value });
    const graph = { termType: 'DefaultGraph', value: '' };
    const quads = [
      {
        subject: { termType: 'BlankNode', value: 'b0' },
        predicate: iri('https://example.org/p'),
        object: {
          termType: 'Literal',
          value: 'chat',
          datatype: iri('http://www.w3.org/1999/02/22-rdf-syntax-ns#langString'),
          language: 'fr',
        },
        graph,
      },
      {
        subject: iri('https://example.org/s'),
        predicate: iri('https://example.org/p'),
        object: { termType: 'Literal', value: '', datatype: iri('http://www.w3.org/2001/XMLSchema#string') },
        graph: iri('urn:uuid:g'),
      },
      {
        subject: iri('https://example.org/s'),
        predicate: iri('https://example.org/p'),
        object: { termType: 'Literal', value: '<_"\u0000', datatype: iri('http://www.w3.org/2001/XMLSchema#string') },
        graph,
      },
      {
        subject: iri('https://example.org/s'),
        predicate: iri('https://example.org/p'),
        object: { termType: 'BlankNode', value: 'b1' },
        graph: { termType: 'BlankNode', value: 'g' },
      },
    ] as unknown as Quad[];
    expect(decodeQuads(encodeQuads(quads)!)).to.deep.equal(quads);
  });

  it('declines a term kind it does not carry, so the sender falls back to term objects', () => {
    const quad = {
      subject: { termType: 'Variable', value: 'x' },
      predicate: { termType: 'NamedNode', value: 'https://example.org/p' },
      object: { termType: 'NamedNode', value: 'https://example.org/o' },
      graph: { termType: 'DefaultGraph', value: '' },
    } as unknown as Quad;
    expect(encodeQuads([quad])).to.equal(undefined);
  });
});
