import { expect } from 'chai';
import type { Quad } from '@rdfjs/types';
import { finish, inSteps, sliceOf, type Steps } from '../../../../src/core/util/slices.js';
import { decodeQuads, decodeSteps, encodeQuads } from '../../../../src/core/rdf/quad-wire.js';
import { QuadIndex } from '../../../../src/core/rdf/quad-index.js';
import { writeGraph, writeGraphSteps } from '../../../../src/core/rdf/graph-writer.js';

const iri = (value: string) => ({ termType: 'NamedNode', value });
const bnode = (value: string) => ({ termType: 'BlankNode', value });
const literal = (value: string) => ({ termType: 'Literal', value, datatype: iri('http://www.w3.org/2001/XMLSchema#string') });
const graph = { termType: 'DefaultGraph', value: '' };

/** A consignment of `items` blank-node items, each with a country node: 3 quads an item. */
function payload(items: number): Quad[] {
  const quads: Record<string, unknown>[] = [];
  for (let i = 0; i < items; i++) {
    quads.push({ subject: iri('urn:c'), predicate: iri('urn:p:item'), object: bnode(`i${i}`), graph });
    quads.push({ subject: bnode(`i${i}`), predicate: iri('urn:p:text'), object: literal(`crate ${i}`), graph });
    quads.push({ subject: bnode(`i${i}`), predicate: iri('urn:p:origin'), object: bnode(`c${i}`), graph });
  }
  return quads as unknown as Quad[];
}

/** Runs `steps` a slice of 0 ms at a time (one yield each), counting the slices. */
function slices<T>(steps: Steps<T>): { value: T; slices: number } {
  for (let n = 1; ; n++) {
    const done = sliceOf(steps, 0);
    if (done) return { value: done.value, slices: n };
  }
}

describe('work in slices (generators that yield every few units)', () => {
  it('decodes, walks and writes a large payload in many slices, with the answers of one piece', () => {
    const quads = payload(2000);
    const wire = encodeQuads(quads)!;
    const decoded = slices(decodeSteps(wire));
    expect(decoded.slices).to.be.above(50);
    expect(decoded.value).to.deep.equal(decodeQuads(wire));
    expect(decoded.value).to.deep.equal(quads);

    const index = new QuadIndex(quads);
    const walked = slices(index.closureSteps([iri('urn:c') as Quad['subject']]));
    expect(walked.slices).to.be.above(50);
    expect(walked.value).to.deep.equal(index.closure([iri('urn:c') as Quad['subject']]));
    // The country nodes are not described, so the walk is every quad.
    expect(walked.value).to.have.length(6000);

    const written = slices(writeGraphSteps(quads, 'urn:g', iri('urn:c') as Quad['subject'], 'urn:uuid:root', 'a1'));
    expect(written.slices).to.be.above(50);
    expect(written.value).to.equal(writeGraph(quads, 'urn:g', iri('urn:c') as Quad['subject'], 'urn:uuid:root', 'a1'));
    expect(written.value.split('\n')).to.have.length(6001);
  });

  it('runs slices with turns of the event loop between them, and finishes small work at once', async () => {
    const quads = payload(2000);
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    try {
      const decoded = await inSteps(decodeSteps(encodeQuads(quads)!), 0);
      expect(decoded).to.have.length(6000);
    } finally {
      clearInterval(counting);
    }
    expect(turns, 'timer turns while decoding').to.be.above(0);
    expect(finish(decodeSteps(encodeQuads(payload(2))!))).to.have.length(6);
  });
});
