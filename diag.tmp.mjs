import SHACLValidator from 'rdf-validate-shacl';
import n3 from 'n3';
const root = '/work/wt/h16s/dist';
const { toQuads } = await import(`${root}/src/activities/parse.js`);
const { normaliseForms } = await import(`${root}/src/activities/payload-forms.js`);
const { createPayloadValidator } = await import(`${root}/src/validation/index.js`);
const { readShapeFiles } = await import(`${root}/src/validation/load-shapes.js`);
const { readFixtures } = await import(`${root}/test/helpers/fixtures.js`);
const { shapesDir } = await import(`${root}/src/project-paths.js`);
const shapes = new n3.Store(readShapeFiles(shapesDir));
const rvs = new SHACLValidator(shapes);
const node = await createPayloadValidator();
for (const kind of ['valid', 'invalid']) for (const f of readFixtures(kind)) {
  const quads = await toQuads(normaliseForms(f.json).json);
  const mine = (await node.validate(quads)).conforms;
  const text = new n3.Writer({ format: 'N-Quads' }).quadsToString(quads);
  const data = new n3.Store(new n3.Parser({ format: 'N-Quads' }).parse(text));
  const r = await rvs.validate(data);
  const tag = mine === r.conforms ? 'same' : 'DIFF';
  console.log(tag, kind, f.name, mine, r.conforms);
}
