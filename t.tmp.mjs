import n3 from 'n3';
const { createShaclEngine } = await import('./dist/src/validation/shacl.js');
const { SmallDataset } = await import('./dist/src/validation/small-dataset.js');
const p = (s) => new n3.Parser().parse(s);
const shapes = p(`@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://ex/> .
ex:S sh:targetClass ex:C ; sh:or ( ex:P ex:Never ) .
ex:Never sh:property [ sh:path ex:zzz ; sh:minCount 1 ] .
ex:P sh:property ex:P-f . ex:P-f sh:path [ sh:alternativePath ( [ sh:inversePath ex:a ] [ sh:inversePath ex:b ] ) ] ; sh:minCount 1 .
ex:S2 sh:targetClass ex:C ; sh:property ex:S2-f . ex:S2-f sh:path [ sh:alternativePath ( [ sh:inversePath ex:a ] [ sh:inversePath ex:b ] ) ] ; sh:minCount 1 .
ex:S3 sh:targetClass ex:C ; sh:property ex:S3-f . ex:S3-f sh:path [ sh:inversePath [ sh:alternativePath ( ex:a ex:b ) ] ] ; sh:minCount 1 .
`);
const data = p(`@prefix ex: <http://ex/> . ex:x ex:b ex:y . ex:y a ex:C .`);
const e = createShaclEngine(new SmallDataset(shapes));
const r = await e.validate({ dataset: new SmallDataset(data) });
console.log(r.conforms, r.results.map(x => x.shape.ptr.term.value + ' ' + x.constraintComponent.value));
