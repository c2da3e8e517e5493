import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadShapes, readShapeFiles } from '../../../src/validation/load-shapes.js';

const DSH = 'https://w3id.org/supply-chain-dataspace/shapes#';

describe('loadShapes', () => {
  it('names inline property shapes after their node shape and path, so reports can cite them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shapes-'));
    writeFileSync(join(dir, 'a.ttl'), `
      @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix dsh: <${DSH}> . @prefix ex: <http://example.org/> .
      dsh:S a sh:NodeShape ;
        sh:property [ sh:path ex:name ; sh:minCount 1 ] ;
        sh:property [ sh:path ex:name ; sh:maxCount 1 ] ;
        sh:property [ sh:path [ sh:alternativePath ( ex:a ex:b ) ] ; sh:maxCount 1 ] ;
        sh:property [ sh:path ( ex:a [ sh:inversePath ex:b ] ) ; sh:maxCount 1 ] .
      dsh:S-name-2 a sh:PropertyShape ; sh:path ex:taken .`);
    const subjects = new Set(loadShapes(dir).filter((q) => q.subject.termType === 'NamedNode').map((q) => q.subject.value.replace(DSH, '')));
    expect([...subjects].sort()).to.deep.equal(['S', 'S-a-b', 'S-a-inverse-b', 'S-name', 'S-name-2', 'S-name-3']);
  });

  it('names the file of a shape with a syntax error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shapes-'));
    writeFileSync(join(dir, 'broken.ttl'), '@prefix sh: <http://www.w3.org/ns/shacl#> . sh:x sh:y');
    expect(() => readShapeFiles(dir)).to.throw(/shapes\/broken.ttl/);
  });
});
