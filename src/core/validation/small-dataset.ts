import type { DatasetCore, Quad, Term } from '@rdfjs/types';

function key(term: Term): string {
  switch (term.termType) {
    case 'Literal':
      return `"${term.value}"@${term.language}^^${term.datatype.value}`;
    case 'DefaultGraph':
      return '';
    default:
      return `${term.termType[0]}${term.value}`;
  }
}

function quadKey(quad: Quad): string {
  return `${key(quad.subject)} ${key(quad.predicate)} ${key(quad.object)} ${key(quad.graph)}`;
}

/**
 * A small RDF/JS DatasetCore for one payload's data graph (tens to a few hundred quads), indexed by
 * subject and object. The SHACL engine asks `match(node, predicate)` once per path step and per
 * alternative predicate; a subject lookup plus a short scan answers that several times faster than a
 * general-purpose store, and validation sits on the inbox hot path. Match results are plain quad
 * lists that build their own index only if they are matched again.
 */
export class SmallDataset implements DatasetCore {
  private readonly quads: Quad[] = [];
  private keys: Set<string> | undefined;
  private bySubject: Map<string, Quad[]> | undefined;
  private byObject: Map<string, Quad[]> | undefined;
  private byPredicate: Map<string, Quad[]> | undefined;

  constructor(quads: Iterable<Quad> = []) {
    for (const quad of quads) this.add(quad);
  }

  /** A dataset over quads known to be distinct (skips the duplicate check). */
  static fromDistinct(quads: Quad[]): SmallDataset {
    const dataset = new SmallDataset();
    dataset.quads.push(...quads);
    return dataset;
  }

  get size(): number {
    return this.quads.length;
  }

  add(quad: Quad): this {
    const keys = this.keySet();
    const k = quadKey(quad);
    if (keys.has(k)) return this;
    keys.add(k);
    this.quads.push(quad);
    if (this.bySubject) push(this.bySubject, key(quad.subject), quad);
    if (this.byObject) push(this.byObject, key(quad.object), quad);
    if (this.byPredicate) push(this.byPredicate, quad.predicate.value, quad);
    return this;
  }

  delete(quad: Quad): this {
    const k = quadKey(quad);
    if (!this.keySet().delete(k)) return this;
    const index = this.quads.findIndex((q) => quadKey(q) === k);
    this.quads.splice(index, 1);
    this.bySubject = undefined;
    this.byObject = undefined;
    this.byPredicate = undefined;
    return this;
  }

  has(quad: Quad): boolean {
    return this.keySet().has(quadKey(quad));
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): DatasetCore {
    let candidates: readonly Quad[];
    if (subject) candidates = this.subjectIndex().get(key(subject)) ?? [];
    else if (object) candidates = this.objectIndex().get(key(object)) ?? [];
    else if (predicate) candidates = this.predicateIndex().get(predicate.value) ?? [];
    else candidates = this.quads;
    const found: Quad[] = [];
    for (const quad of candidates) {
      if (predicate && !predicate.equals(quad.predicate)) continue;
      if (object && !object.equals(quad.object)) continue;
      if (graph && !graph.equals(quad.graph)) continue;
      found.push(quad);
    }
    return found.length === 0 ? EMPTY : new MatchResult(found);
  }

  [Symbol.iterator](): Iterator<Quad> {
    return this.quads[Symbol.iterator]();
  }

  /** The objects of (subject, predicate), without a match result around them (compiled checks). */
  objectsOf(subject: Term, predicate: Term): Term[] {
    const out: Term[] = [];
    const candidates = this.subjectIndex().get(key(subject));
    if (candidates) for (const quad of candidates) if (quad.predicate.value === predicate.value) out.push(quad.object);
    return out;
  }

  /** The subjects of (predicate, object). */
  subjectsOf(predicate: Term, object: Term): Term[] {
    const out: Term[] = [];
    const candidates = this.objectIndex().get(key(object));
    if (candidates) for (const quad of candidates) if (quad.predicate.value === predicate.value) out.push(quad.subject);
    return out;
  }

  private keySet(): Set<string> {
    if (!this.keys) this.keys = new Set(this.quads.map(quadKey));
    return this.keys;
  }

  /* Each index is built when first asked for: a valid payload's checks need the subject index and a
   * few object lookups, and building all three cost as much as the checks themselves. */
  private subjectIndex(): Map<string, Quad[]> {
    if (!this.bySubject) {
      this.bySubject = new Map();
      for (const quad of this.quads) push(this.bySubject, key(quad.subject), quad);
    }
    return this.bySubject;
  }

  private objectIndex(): Map<string, Quad[]> {
    if (!this.byObject) {
      this.byObject = new Map();
      for (const quad of this.quads) push(this.byObject, key(quad.object), quad);
    }
    return this.byObject;
  }

  private predicateIndex(): Map<string, Quad[]> {
    if (!this.byPredicate) {
      this.byPredicate = new Map();
      for (const quad of this.quads) push(this.byPredicate, quad.predicate.value, quad);
    }
    return this.byPredicate;
  }
}

/**
 * What match() returns: the quads found, read-only. The engine only iterates match results (and
 * asks their size), so they carry no indexes; matching one again builds a dataset on demand.
 */
class MatchResult implements DatasetCore {
  constructor(private readonly quads: readonly Quad[]) {}

  get size(): number {
    return this.quads.length;
  }

  has(quad: Quad): boolean {
    return this.quads.some((q) => q.equals(quad));
  }

  match(subject?: Term | null, predicate?: Term | null, object?: Term | null, graph?: Term | null): DatasetCore {
    return SmallDataset.fromDistinct([...this.quads]).match(subject, predicate, object, graph);
  }

  add(): this {
    throw new Error('A match result is read-only');
  }

  delete(): this {
    throw new Error('A match result is read-only');
  }

  [Symbol.iterator](): Iterator<Quad> {
    return this.quads[Symbol.iterator]();
  }
}

const EMPTY = new MatchResult([]);

function push(index: Map<string, Quad[]>, k: string, quad: Quad): void {
  const list = index.get(k);
  if (list) list.push(quad);
  else index.set(k, [quad]);
}
