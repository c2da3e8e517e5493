import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import n3 from 'n3';
import type { Quad } from '@rdfjs/types';
import { DSH } from './readable.js';

const { Parser } = n3;

const SH = 'http://www.w3.org/ns/shacl#';

/** Every `*.ttl` file of the shapes folder, parsed into one list of quads. */
export function readShapeFiles(dir: string): Quad[] {
  const quads: Quad[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ttl'))
    .sort()) {
    const path = join(dir, file);
    const parser = new Parser({ baseIRI: pathToFileURL(path).href, blankNodePrefix: `${file.replace(/\W/g, '_')}_` });
    try {
      quads.push(...(parser.parse(readFileSync(path, 'utf8')) as Quad[]));
    } catch (error) {
      throw new Error(`shapes/${file}: ${(error as Error).message}`, { cause: error });
    }
  }
  return quads;
}

/**
 * Every property shape a node shape uses has its own IRI in the files (`dsh:ConsignmentShape-identifier`),
 * so that the `sh:sourceShape` of a report, the node's or any other engine's, names a shape a person
 * can find in shapes/*.ttl. A blank property shape would be reported as `_:b42`, differently by each
 * engine: the loader refuses one rather than name it itself.
 */
export function unnamedPropertyShapes(quads: Quad[]): string[] {
  const found: string[] = [];
  for (const q of quads) {
    if (q.predicate.value !== `${SH}property` || q.object.termType !== 'BlankNode') continue;
    found.push(q.subject.value.startsWith(DSH) ? `dsh:${q.subject.value.slice(DSH.length)}` : q.subject.value);
  }
  return found;
}

/** The node's shapes: all shape files, each property shape named. */
export function loadShapes(dir: string): Quad[] {
  const quads = readShapeFiles(dir);
  const unnamed = unnamedPropertyShapes(quads);
  if (unnamed.length > 0) {
    throw new Error(
      `${dir}: give each property shape an IRI (sh:property dsh:<Shape>-<field>), not [ ... ]; unnamed ones in ${[...new Set(unnamed)].join(', ')}`,
    );
  }
  return quads;
}
