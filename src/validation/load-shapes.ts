import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { RDF } from '../rdf/namespaces.js';
import { DSH, localName } from './readable.js';

const { DataFactory, Parser } = n3;
const { namedNode, quad: makeQuad } = DataFactory;

const SH = 'http://www.w3.org/ns/shacl#';

/** Every `*.ttl` file of the shapes folder, parsed into one list of quads. */
export function readShapeFiles(dir: string): Quad[] {
  const quads: Quad[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ttl')).sort()) {
    const path = join(dir, file);
    const parser = new Parser({ baseIRI: pathToFileURL(path).href, blankNodePrefix: `${file.replace(/\W/g, '_')}_` });
    try {
      quads.push(...(parser.parse(readFileSync(path, 'utf8')) as Quad[]));
    } catch (error) {
      throw new Error(`shapes/${file}: ${(error as Error).message}`);
    }
  }
  return quads;
}

function pathName(path: Term, bySubject: Map<string, Quad[]>): string {
  if (path.termType === 'NamedNode') return path.value === `${RDF}type` ? 'type' : localName(path.value);
  const out = bySubject.get(path.value) ?? [];
  const list = (head: Term): Term[] => {
    const items: Term[] = [];
    for (let node = head, guard = 0; node.termType === 'BlankNode' && guard < 100; guard++) {
      const links = bySubject.get(node.value) ?? [];
      const first = links.find((q) => q.predicate.value === `${RDF}first`);
      const rest = links.find((q) => q.predicate.value === `${RDF}rest`);
      if (!first || !rest) break;
      items.push(first.object);
      node = rest.object;
    }
    return items;
  };
  const alternative = out.find((q) => q.predicate.value === `${SH}alternativePath`);
  if (alternative) return list(alternative.object).map((t) => pathName(t, bySubject)).join('-');
  const inverse = out.find((q) => q.predicate.value === `${SH}inversePath`);
  if (inverse) return `inverse-${pathName(inverse.object, bySubject)}`;
  if (out.some((q) => q.predicate.value === `${RDF}first`)) return list(path).map((t) => pathName(t, bySubject)).join('-');
  return 'path';
}

/**
 * Property shapes written inline (`sh:property [ ... ]`) are blank nodes, so a report would name
 * its source shape `_:b42`. They get stable IRIs instead, `dsh:<NodeShape>-<path>`
 * (`dsh:ConsignmentShape-identifier`), which a person can find in shapes/*.ttl.
 */
export function nameInlinePropertyShapes(quads: Quad[]): Quad[] {
  const bySubject = new Map<string, Quad[]>();
  for (const q of quads) {
    if (q.subject.termType !== 'BlankNode') continue;
    const list = bySubject.get(q.subject.value);
    if (list) list.push(q);
    else bySubject.set(q.subject.value, [q]);
  }
  const names = new Map<string, Term>();
  const taken = new Set(quads.filter((q) => q.subject.termType === 'NamedNode').map((q) => q.subject.value));
  for (const q of quads) {
    if (q.predicate.value !== `${SH}property` || q.subject.termType !== 'NamedNode' || q.object.termType !== 'BlankNode') continue;
    if (!q.subject.value.startsWith(DSH) || names.has(q.object.value)) continue;
    const path = (bySubject.get(q.object.value) ?? []).find((p) => p.predicate.value === `${SH}path`);
    const base = `${q.subject.value}-${path ? pathName(path.object, bySubject) : 'property'}`;
    let iri = base;
    for (let n = 2; taken.has(iri); n++) iri = `${base}-${n}`;
    taken.add(iri);
    names.set(q.object.value, namedNode(iri));
  }
  const rename = (term: Term): Term => (term.termType === 'BlankNode' ? names.get(term.value) ?? term : term);
  return quads.map((q) =>
    makeQuad(rename(q.subject) as Quad['subject'], q.predicate, rename(q.object) as Quad['object'], q.graph),
  );
}

/** The node's shapes: all shape files, with inline property shapes named. */
export function loadShapes(dir: string): Quad[] {
  return nameInlinePropertyShapes(readShapeFiles(dir));
}
