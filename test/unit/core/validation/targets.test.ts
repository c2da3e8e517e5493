import { expect } from 'chai';
import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import type { EngineResult } from 'shacl-engine';
import { toQuads } from '../../../../src/core/activities/parse.js';
import { shapesDir } from '../../../../src/core/project-paths.js';
import { loadShapes } from '../../../../src/core/validation/load-shapes.js';
import { createShaclEngine } from '../../../../src/core/validation/shacl.js';
import { SmallDataset } from '../../../../src/core/validation/small-dataset.js';
import { TargetIndex } from '../../../../src/core/validation/targets.js';
import { readFixtures } from '../../../helpers/fixtures.js';

const SH = 'http://www.w3.org/ns/shacl#';

function key(term: Term): string {
  return `${term.termType}:${term.value}`;
}

function resultKey(r: EngineResult): string {
  return [key(r.focusNode.term), key(r.shape.ptr.term), r.constraintComponent.value, r.value ? key(r.value.term) : ''].join(' ');
}

function toN3(quads: Quad[]): Quad[] {
  const { DataFactory: F } = n3;
  const term = (t: Term): Term =>
    t.termType === 'NamedNode'
      ? F.namedNode(t.value)
      : t.termType === 'BlankNode'
        ? F.blankNode(t.value)
        : t.termType === 'Literal'
          ? F.literal(t.value, t.language || F.namedNode(t.datatype.value))
          : F.defaultGraph();
  return quads.map((q) =>
    F.quad(
      term(q.subject) as Quad['subject'],
      term(q.predicate) as Quad['predicate'],
      term(q.object) as Quad['object'],
      term(q.graph) as Quad['graph'],
    ),
  );
}

describe('TargetIndex (one-pass target resolution)', function () {
  this.timeout(30000);
  const shapes = new SmallDataset(loadShapes(shapesDir));
  const index = new TargetIndex(shapes);
  const engine = createShaclEngine(shapes);
  const targeted = [
    ...new Map(
      [...shapes]
        .filter((q) => q.predicate.value.startsWith(`${SH}target`) && q.subject.termType === 'NamedNode')
        .map((q) => [q.subject.value, q.subject]),
    ).values(),
  ];

  it('records which fields each shape targets', () => {
    expect(index.objectsOf.get('https://w3id.org/supply-chain-dataspace/shapes#CountryCode')).to.include(
      'https://vocabulary.uncefact.org/countryId',
    );
  });

  // The node hands the engine the focus nodes it found; the engine, left to resolve the targets
  // itself, must find the same violations on every payload of the corpus.
  for (const kind of ['valid', 'invalid'] as const) {
    it(`gives the same results as the engine's own target resolution on every ${kind} fixture`, async () => {
      for (const fixture of readFixtures(kind)) {
        const data = new SmallDataset(toN3(await toQuads(fixture.json)).filter((q) => q.graph.termType === 'DefaultGraph'));
        const own = (
          await engine.validate(
            { dataset: data },
            targeted.map((t) => ({ terms: [t] })),
          )
        ).results
          .map(resultKey)
          .sort();
        const mine: string[] = [];
        for (const { shape, focusNodes } of index.resolve(data)) {
          const report = await engine.validate({ dataset: data, terms: focusNodes }, [{ terms: [shape] }]);
          mine.push(...report.results.map(resultKey));
        }
        expect(mine.sort(), fixture.name).to.deep.equal(own);
      }
    });
  }
});
