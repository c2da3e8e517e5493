import type { Quad } from '@rdfjs/types';
import { finish, STEP_UNITS, type Steps } from '../util/slices.js';

/**
 * Quads as a flat array of strings, for passing them between threads. Structured cloning an array of quad
 * objects is slow to read back on the receiving thread (every term object and every repeated `termType`
 * string is rebuilt through V8's generic deserializer) and to write; this form costs a fraction of either,
 * the decoding included (the figures: bench/results/2026-12-07-comment-figures.md). The decoded quads have
 * the shape jsonld.js gives (plain term objects; a literal has `language` only when it is
 * language-tagged), so receivers see no difference.
 *
 * Each term is one string tagged by its first character (`<` IRI, `_` blank node label), the default graph
 * is the empty string, and a literal is three strings: `"` + lexical form, datatype IRI, language tag (''
 * for none).
 */
export type QuadWire = string[];

type Term = Quad['subject'] | Quad['predicate'] | Quad['object'] | Quad['graph'];

/** The wire form, or undefined for a term kind it does not carry (a quoted triple, a variable). */
export function encodeQuads(quads: readonly Quad[]): QuadWire | undefined {
  const out: string[] = [];
  const term = (t: Term): boolean => {
    switch (t.termType) {
      case 'NamedNode':
        out.push(`<${t.value}`);
        return true;
      case 'BlankNode':
        out.push(`_${t.value}`);
        return true;
      case 'DefaultGraph':
        out.push('');
        return true;
      case 'Literal':
        out.push(`"${t.value}`, t.datatype.value, (t as { language?: string }).language ?? '');
        return true;
      default:
        return false;
    }
  };
  for (const q of quads) {
    if (!(term(q.subject) && term(q.predicate) && term(q.object) && term(q.graph))) return undefined;
  }
  return out;
}

export function decodeQuads(wire: QuadWire): Quad[] {
  return finish(decodeSteps(wire));
}

/** decodeQuads() in steps (util/slices.ts): a large payload's quads (~6,000 for 150 KB) took ~9 ms in one piece. */
export function* decodeSteps(wire: QuadWire): Steps<Quad[]> {
  const quads: Record<string, unknown>[] = [];
  let i = 0;
  const next = (): string => {
    const s = wire[i++];
    if (s === undefined) throw new Error('The quad wire ends inside a quad');
    return s;
  };
  const term = (): Record<string, unknown> => {
    const s = next();
    if (s === '') return { termType: 'DefaultGraph', value: '' };
    const tag = s.charCodeAt(0);
    if (tag === 60 /* < */) return { termType: 'NamedNode', value: s.slice(1) };
    if (tag === 95 /* _ */) return { termType: 'BlankNode', value: s.slice(1) };
    const datatype = { termType: 'NamedNode', value: next() };
    const language = next();
    return language === ''
      ? { termType: 'Literal', value: s.slice(1), datatype }
      : { termType: 'Literal', value: s.slice(1), datatype, language };
  };
  while (i < wire.length) {
    if (quads.length % STEP_UNITS === STEP_UNITS - 1) yield;
    quads.push({ subject: term(), predicate: term(), object: term(), graph: term() });
  }
  return quads as unknown as Quad[];
}
