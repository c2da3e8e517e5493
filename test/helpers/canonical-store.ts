import type { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';

/**
 * The store's content (its activity log's apart too) with blank nodes named by what they hang from, so
 * two copies compare equal.
 */
export function canonical(store: OxigraphStore): string[] {
  const quads = [...store.store.match(), ...(store.apart?.store.match() ?? [])];
  const names = new Map<string, string>();
  for (const q of quads) {
    if (q.object.termType === 'BlankNode' && q.subject.termType !== 'BlankNode')
      names.set(q.object.value, `${q.subject.value}|${q.predicate.value}`);
  }
  for (const q of quads) {
    if (q.object.termType === 'BlankNode' && q.subject.termType === 'BlankNode')
      names.set(q.object.value, `${names.get(q.subject.value)}/${q.predicate.value}`);
  }
  const term = (t: { termType: string; value: string; toString(): string }) =>
    t.termType === 'BlankNode' ? `_:[${names.get(t.value)}]` : t.toString();
  return quads.map((q) => `${term(q.subject)} ${q.predicate.toString()} ${term(q.object)} ${q.graph.toString()}`).sort();
}
