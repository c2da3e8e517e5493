import type { Quad, Term } from '@rdfjs/types';
import { finish, STEP_UNITS, type Steps } from '../util/slices.js';

/** Quads indexed by subject, for walking a small parsed payload without a store. */
export class QuadIndex {
  private readonly bySubject = new Map<string, Quad[]>();

  constructor(readonly quads: readonly Quad[]) {
    for (const quad of quads) {
      const key = keyOf(quad.subject);
      const list = this.bySubject.get(key);
      if (list) list.push(quad);
      else this.bySubject.set(key, [quad]);
    }
  }

  about(subject: Term): Quad[] {
    return this.bySubject.get(keyOf(subject)) ?? [];
  }

  objects(subject: Term, predicate: string): Term[] {
    return this.about(subject)
      .filter((q) => q.predicate.value === predicate)
      .map((q) => q.object);
  }

  object(subject: Term, predicate: string): Term | undefined {
    return this.objects(subject, predicate)[0];
  }

  subjectsOfType(type: string): Term[] {
    const out: Term[] = [];
    for (const quads of this.bySubject.values()) {
      const typed = quads.find((q) => q.predicate.value === 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type' && q.object.value === type);
      if (typed) out.push(typed.subject);
    }
    return out;
  }

  /** Every quad reachable from `roots` by following objects that are themselves described here. */
  closure(roots: Term[]): Quad[] {
    return finish(this.closureSteps(roots));
  }

  /** closure() in steps (util/slices.ts): a large payload's walk need not be one piece of the event loop. */
  *closureSteps(roots: Term[]): Steps<Quad[]> {
    let units = 0;
    const seen = new Set<string>();
    const out: Quad[] = [];
    const queue = [...roots];
    while (queue.length > 0) {
      const node = queue.pop()!;
      const key = keyOf(node);
      if (seen.has(key)) continue;
      seen.add(key);
      for (const quad of this.about(node)) {
        if (++units % STEP_UNITS === 0) yield;
        out.push(quad);
        if (quad.object.termType === 'BlankNode' || quad.object.termType === 'NamedNode') queue.push(quad.object);
      }
    }
    return out;
  }
}

export function keyOf(term: Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.termType === 'Literal' ? `"${term.value}` : term.value;
}
