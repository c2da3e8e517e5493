import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { scratchDir } from '../../../helpers/scratch-dirs.js';
import { shapesDir } from '../../../../src/core/project-paths.js';
import { loadShapes, readShapeFiles, unnamedPropertyShapes } from '../../../../src/core/validation/load-shapes.js';

const DSH = 'https://w3id.org/supply-chain-dataspace/shapes#';

describe('loadShapes', () => {
  it('refuses a property shape without an IRI, naming the node shape that uses it', () => {
    const dir = scratchDir('shapes-');
    writeFileSync(
      join(dir, 'a.ttl'),
      `
      @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix dsh: <${DSH}> . @prefix ex: <http://example.org/> .
      dsh:S a sh:NodeShape ; sh:property dsh:S-name ; sh:property [ sh:path ex:other ; sh:minCount 1 ] .
      dsh:S-name a sh:PropertyShape ; sh:path ex:name ; sh:minCount 1 .`,
    );
    expect(() => loadShapes(dir)).to.throw(/dsh:S\b/);
  });

  it("loads the project's shapes, every property shape named", () => {
    const quads = loadShapes(shapesDir);
    expect(quads.length).to.be.greaterThan(1000);
    expect(unnamedPropertyShapes(quads)).to.deep.equal([]);
  });

  it('names the file of a shape with a syntax error', () => {
    const dir = scratchDir('shapes-');
    writeFileSync(join(dir, 'broken.ttl'), '@prefix sh: <http://www.w3.org/ns/shacl#> . sh:x sh:y');
    expect(() => readShapeFiles(dir)).to.throw(/shapes\/broken.ttl/);
  });
});
