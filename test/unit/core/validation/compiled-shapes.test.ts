import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { toQuads } from '../../../../src/core/activities/parse.js';
import { shapesDir } from '../../../../src/core/project-paths.js';
import { allConform, CompiledShapes, Undecided } from '../../../../src/core/validation/compiled-shapes.js';
import { loadShapes } from '../../../../src/core/validation/load-shapes.js';
import { detachedProblems, findRoots } from '../../../../src/core/validation/payload-roots.js';
import { PayloadMap } from '../../../../src/core/validation/readable-results.js';
import { createPayloadValidator, payloadData } from '../../../../src/core/validation/payload-validator.js';
import type { PayloadValidator } from '../../../../src/core/validation/index.js';
import { createShaclEngine } from '../../../../src/core/validation/shacl.js';
import { SmallDataset } from '../../../../src/core/validation/small-dataset.js';
import { TargetIndex } from '../../../../src/core/validation/targets.js';
import { fixturesDir, readFixtures } from '../../../helpers/fixtures.js';
import { seededRandom } from '../../../helpers/seeded-random.js';

type Json = unknown;

/** Values that meet or break the shapes' constraints: codes from the right list, the wrong list and
 * none, date-times good and bad, numbers, booleans, empty text, objects of the wrong type. */
const REPLACEMENTS: Json[] = [
  'unece:CountryId#GB',
  'unece:CountryId#XX',
  'unece:TransportModeCodeList#1',
  'unece:TransportModeCodeList#99',
  'unece:GoodsTypeCodeList#8483',
  'unece:UnitMeasureCode#KGM',
  'unece:UnitMeasureCode#MTQ',
  'unece:DocumentCodeList#380',
  'urn:uuid:6f1c1a52-7d4e-4a53-9a55-2d3b0f6d1e01',
  'urn:uuid:not-a-uuid',
  'https://example.org/doc/1',
  'did:web:example.org',
  'NLRTM',
  'nlrtm',
  '2024-05-01T10:00:00Z',
  '2024-13-01T10:00:00Z',
  'soon',
  '',
  'x',
  12,
  -3,
  2.5,
  true,
  { type: 'TradeParty', name: 'Someone' },
  { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#FR' },
  { type: 'Consignment' },
  { name: 'untyped' },
  { '@value': 'did:web:example.org', '@type': 'gs1:OrganizationID_Type-DID' },
];

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every (holder, key) of a JSON tree except the contexts, so a mutation can pick one. */
function slots(json: Json): { holder: Record<string, Json> | Json[]; key: string | number }[] {
  const found: { holder: Record<string, Json> | Json[]; key: string | number }[] = [];
  const walk = (value: Json): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        found.push({ holder: value, key: i });
        walk(item);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === '@context') continue;
        found.push({ holder: value as Record<string, Json>, key: k });
        walk(v);
      }
    }
  };
  walk(json);
  return found;
}

/** One to three random edits: delete a field, replace a value, or repeat a value as an array. */
function mutate(json: Json, next: () => number): Json {
  const copy = clone(json);
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const all = slots(copy);
    if (all.length === 0) break;
    const { holder, key } = all[Math.floor(next() * all.length)]!;
    const h = holder as Record<string | number, Json>;
    const kind = next();
    if (kind < 0.3) {
      if (Array.isArray(holder)) holder.splice(key as number, 1);
      else delete h[key];
    } else if (kind < 0.85) {
      h[key] = clone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
    } else {
      h[key] = [h[key], clone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)])];
    }
  }
  return copy;
}

function pilots(): Json[] {
  const dir = join(fixturesDir, 'pilots');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Json);
}

describe('compiled SHACL checks (src/core/validation/compiled-shapes.ts)', function () {
  this.timeout(120000);
  const shapes = new SmallDataset(loadShapes(shapesDir));
  const engine = createShaclEngine(shapes);
  const targets = new TargetIndex(shapes);
  const compiled = new CompiledShapes(shapes);
  let withChecks: PayloadValidator;
  let engineOnly: PayloadValidator;
  const valid = readFixtures('valid').map((f) => f.json);
  const invalid = readFixtures('invalid').map((f) => f.json);
  const next = seededRandom(18);
  const randomPayloads = Array.from({ length: 160 }, (_, i) => mutate([...valid, ...pilots()][i % (valid.length + 3)], next));

  before(async () => {
    withChecks = await createPayloadValidator();
    engineOnly = await createPayloadValidator({ compiledChecks: false });
  });

  const tally = { pairs: 0, decided: 0, shortcut: 0, payloads: 0 };

  /**
   * The proof, per payload: (1) for every (shape, focus node) pair the targets give, a compiled
   * "true" is an engine report with no result and a compiled "false" one with results (Undecided
   * pairs are the engine's); (2) the validator's report equals the engine-only validator's, every
   * result with its severity (so warnings are never skipped).
   */
  async function prove(json: Json): Promise<void> {
    let quads: Quad[];
    try {
      quads = await toQuads(json);
    } catch {
      return; // refused before validation (bad JSON-LD): nothing to validate
    }
    tally.payloads++;
    const { data, namedGraphQuads } = payloadData(quads);
    const pairs = targets.resolve(data);
    for (const { shape, focusNodes } of pairs) {
      for (const node of focusNodes) {
        tally.pairs++;
        let verdict: boolean;
        try {
          verdict = compiled.conforms(shape, node, data);
        } catch (error) {
          if (error instanceof Undecided) continue;
          throw error;
        }
        tally.decided++;
        const report = await engine.validate({ dataset: data, terms: [node] as Term[] }, [{ terms: [shape] }]);
        expect(verdict, `${shape.value} on ${node.value}: compiled ${verdict}, engine ${report.results.length} results`).to.equal(
          report.results.length === 0,
        );
      }
    }
    const fast = await withChecks.validate(quads);
    const slow = await engineOnly.validate(quads);
    expect(fast.conforms).to.equal(slow.conforms);
    expect(fast.results).to.deep.equal(slow.results);
    expect(fast.reportQuads().length).to.equal(slow.reportQuads().length);
    // The validator's own condition for skipping the engine: no structure problem, every pair passes.
    const roots = findRoots(data, namedGraphQuads);
    const map = new PayloadMap(data, roots.root);
    const structural = roots.root ? [...roots.problems, ...detachedProblems(data, (node) => map.reaches(node))] : roots.problems;
    if (structural.length === 0 && allConform(compiled, pairs, data)) {
      tally.shortcut++;
      expect(slow.results, 'a payload the compiled checks pass has no result of any severity').to.deep.equal([]);
    }
  }

  it('agrees with shacl-engine on every valid fixture, and decides each one that has no result without the engine', async () => {
    for (const json of valid) {
      await prove(json);
      const quads = await toQuads(json);
      const { data } = payloadData(quads);
      const slow = await engineOnly.validate(quads);
      // Coverage: the shortcut is taken for every valid payload the engine reports nothing for.
      expect(allConform(compiled, targets.resolve(data), data)).to.equal(slow.results.length === 0);
    }
  });

  it('keeps the warnings of a valid payload the engine warns about (unlisted event typeCode)', async () => {
    const json = readFixtures('valid').find((f) => f.name === 'add-event-unlisted-typecode.json')!.json;
    const report = await withChecks.validate(await toQuads(json));
    expect(report.conforms).to.equal(true);
    expect(report.results.map((r) => r.severity)).to.include('Warning');
  });

  it('agrees with shacl-engine on every invalid fixture and pilot payload', async () => {
    for (const json of [...invalid, ...pilots()]) await prove(json);
  });

  it('agrees with shacl-engine on 160 seeded random edits of the fixtures', async () => {
    for (const json of randomPayloads) await prove(json);
    // Not a vacuous proof: most pairs are decided by the compiled checks, and some payloads both
    // take the shortcut and fail it.
    expect(tally.decided / tally.pairs).to.be.greaterThan(0.9);
    expect(tally.shortcut).to.be.greaterThan(10);
    expect(tally.payloads - tally.shortcut).to.be.greaterThan(50);
  });

  describe('constructs it leaves to the engine', () => {
    const ex = 'http://example.org/';
    const { namedNode, blankNode, quad } = n3.DataFactory;
    const shapesOf = (turtle: string): CompiledShapes =>
      new CompiledShapes(
        new SmallDataset(new n3.Parser().parse(`@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <${ex}> .\n${turtle}`) as Quad[]),
      );
    const a = blankNode('a');
    const b = blankNode('b');
    const cyclic = SmallDataset.fromDistinct([quad(a, namedNode(`${ex}next`), b), quad(b, namedNode(`${ex}next`), a)]);

    it('a shape that refers to itself, even on data with a cycle', () => {
      const compiledShapes = shapesOf('ex:S sh:property ex:S-next . ex:S-next sh:path ex:next ; sh:node ex:S .');
      expect(() => compiledShapes.conforms(namedNode(`${ex}S`), a, cyclic)).to.throw(Undecided, /refers to itself/);
    });

    it('a constraint outside the compiled subset, and sh:flags', () => {
      const compiledShapes = shapesOf('ex:X sh:xone ( ex:A ex:B ) . ex:P sh:path ex:next ; sh:pattern "^a" ; sh:flags "i" .');
      expect(() => compiledShapes.conforms(namedNode(`${ex}X`), a, cyclic)).to.throw(Undecided, /xone/);
      expect(() => compiledShapes.conforms(namedNode(`${ex}P`), a, cyclic)).to.throw(Undecided, /flags/);
    });

    it('decides the subset it compiles, on the same data', () => {
      const compiledShapes = shapesOf(
        'ex:N sh:property ex:N-next . ex:N-next sh:path ex:next ; sh:minCount 1 ; sh:maxCount 1 ; sh:nodeKind sh:BlankNode .',
      );
      expect(compiledShapes.conforms(namedNode(`${ex}N`), a, cyclic)).to.equal(true);
      expect(compiledShapes.conforms(namedNode(`${ex}N`), namedNode(`${ex}none`), cyclic)).to.equal(false);
    });
  });
});
