#!/usr/bin/env node
// Validates a data graph against the files in shapes/ with an engine that is not the node's own
// (rdf-validate-shacl), the way a standards tester would: no code-selected targets, nothing but the
// SHACL in shapes/*.ttl. Prints the sh:ValidationReport as Turtle; exits 0 when it holds no
// Violation (Warnings do not block, as at the node), 1 when it does.
//
//   node scripts/shacl-check.mjs data.nq          # the data graph /validate returns (Accept: application/n-quads)
//   node scripts/shacl-check.mjs data.ttl         # or Turtle
//
// Plain JavaScript, so it runs without a build; rdf-validate-shacl is a devDependency (npm install).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import n3 from 'n3';
import SHACLValidator from 'rdf-validate-shacl';

const SH = 'http://www.w3.org/ns/shacl#';
const shapesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'shapes');

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node scripts/shacl-check.mjs <data.nq | data.ttl>\n');
  process.exit(2);
}

const shapes = new n3.Store();
for (const name of readdirSync(shapesDir)
  .filter((f) => f.endsWith('.ttl'))
  .sort()) {
  const path = join(shapesDir, name);
  shapes.addQuads(
    new n3.Parser({ baseIRI: pathToFileURL(path).href, blankNodePrefix: `${name.replace(/\W/g, '_')}_` }).parse(readFileSync(path, 'utf8')),
  );
}
const format = /\.(nq|nquads)$/.test(file) ? 'N-Quads' : /\.nt$/.test(file) ? 'N-Triples' : 'Turtle';
const data = new n3.Store(new n3.Parser({ format }).parse(readFileSync(file, 'utf8')));

const report = await new SHACLValidator(shapes).validate(data);
const writer = new n3.Writer({
  prefixes: { sh: SH, dsh: 'https://w3id.org/supply-chain-dataspace/shapes#', unece: 'https://vocabulary.uncefact.org/' },
});
writer.addQuads([...report.dataset]);
writer.end((error, turtle) => {
  if (error) throw error;
  process.stdout.write(turtle);
  const violations = report.results.filter((r) => r.severity?.value === `${SH}Violation`).length;
  process.stderr.write(`${violations === 0 ? 'conforms' : `${violations} violation(s)`} (${report.results.length} result(s) in all)\n`);
  process.exit(violations === 0 ? 0 : 1);
});
