import { expect } from 'chai';
import n3 from 'n3';
import { SmallDataset } from '../../../../src/core/validation/small-dataset.js';

const { blankNode, defaultGraph, literal, namedNode, quad } = n3.DataFactory;
const ex = (s: string) => namedNode(`http://example.org/${s}`);

describe('SmallDataset (the data graph the engine reads)', () => {
  const a = blankNode('a');
  const b = blankNode('b');
  const quads = [quad(a, ex('p'), b), quad(a, ex('q'), literal('1')), quad(b, ex('p'), literal('1')), quad(b, ex('r'), ex('c'), ex('g'))];

  it('matches by any combination of subject, predicate, object and graph', () => {
    const d = new SmallDataset(quads);
    expect(d.size).to.equal(4);
    expect(d.match(a).size).to.equal(2);
    expect(d.match(a, ex('p')).size).to.equal(1);
    expect(d.match(null, ex('p')).size).to.equal(2);
    expect(d.match(null, null, literal('1')).size).to.equal(2);
    expect(d.match(null, null, literal('1', 'en')).size).to.equal(0);
    expect(d.match(null, null, null, ex('g')).size).to.equal(1);
    expect(d.match(null, null, null, defaultGraph()).size).to.equal(3);
    expect(d.match(ex('nothing')).size).to.equal(0);
    expect([...d.match(b, ex('p'), literal('1'))][0]!.equals(quads[2])).to.equal(true);
  });

  it('is a set: adding a quad twice keeps one, delete removes it from every index', () => {
    const d = new SmallDataset(quads);
    d.add(quad(a, ex('p'), b));
    expect(d.size).to.equal(4);
    expect(d.has(quad(a, ex('q'), literal('1')))).to.equal(true);
    d.delete(quad(a, ex('q'), literal('1')));
    expect(d.has(quad(a, ex('q'), literal('1')))).to.equal(false);
    expect(d.match(a).size).to.equal(1);
    expect(d.match(null, null, literal('1')).size).to.equal(1);
    d.add(quad(a, ex('q'), literal('2')));
    expect(d.match(a, ex('q')).size).to.equal(1);
  });
});
