import { createHash, randomUUID } from 'node:crypto';
import type { BlankNode, Quad, Term } from '@rdfjs/types';
import n3 from 'n3';

const { DataFactory, Parser } = n3;

/**
 * What replacing a graph's quads by new ones has to change, so the embedded store can replace a graph
 * by deleting and adding only what differs instead of dropping it and loading it again.
 *
 * Why: Oxigraph's in-memory store never frees a removed quad (compaction-policy.ts), so an Update that
 * drops a consignment's state graph and loads it again keeps every old quad in memory, dozens for a
 * typical consignment, even when only its description changed. Most of a D23B graph hangs on blank
 * nodes (parties, addresses, locations, equipment, items) and every load gives blank nodes fresh ids,
 * so a plain set difference would still replace most of the graph. Blank nodes of the new quads are
 * therefore first mapped onto the old graph's blank nodes: top-down from the named nodes, pairing the
 * blank nodes hung from the same subject by the same predicate, those with an identical subtree first.
 *
 * Any one-to-one mapping gives the right result: the graph afterwards holds exactly the new quads with
 * some blank nodes renamed, which is the same RDF graph. The pairing only decides how little changes.
 * New blank nodes left unpaired get ids no other blank node has.
 */
export interface GraphDiff {
  /** Old quads the new graph does not hold. */
  remove: Quad[];
  /** New quads the old graph does not hold, their blank nodes renamed to the old ones they were paired with. */
  add: Quad[];
}

type Node = Quad['subject'] | Quad['object'];

const isBlank = (term: Node): term is BlankNode => term.termType === 'BlankNode';
/** A term as a string, distinct for distinct terms. */
const termKey = (t: Term): string => {
  if (t.termType === 'Literal') return `${JSON.stringify(t.value)}@${t.language}^^${t.datatype.value}`;
  return t.termType === 'BlankNode' ? `_:${t.value}` : `<${t.value}>`;
};
/** Quads are compared as plain JavaScript terms: each property read of an Oxigraph term is a call into its WebAssembly. */
const quadKey = (q: Quad): string => `${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)}`;

/** The quads of one graph by subject, with the identical-subtree signature of each blank node. */
class Side {
  readonly bySubject = new Map<string, Quad[]>();
  private readonly signatures = new Map<string, string>();

  constructor(readonly quads: readonly Quad[]) {
    for (const q of quads) {
      const key = termKey(q.subject);
      const list = this.bySubject.get(key);
      if (list) list.push(q);
      else this.bySubject.set(key, [q]);
    }
  }

  /** A digest of what hangs from a blank node, the same for two nodes with identical subtrees. */
  signature(node: BlankNode, visiting = new Set<string>()): string {
    const key = termKey(node);
    const known = this.signatures.get(key);
    if (known !== undefined) return known;
    // A cycle through blank nodes (never made by JSON-LD trees): this node matches nothing by content.
    if (visiting.has(key)) return `cycle ${key}`;
    visiting.add(key);
    const lines = (this.bySubject.get(key) ?? [])
      .map((q) => `${q.predicate.value} ${isBlank(q.object) ? `[${this.signature(q.object, visiting)}]` : termKey(q.object)}`)
      .sort();
    visiting.delete(key);
    const digest = lines.length <= 1 ? lines.join('') : createHash('sha1').update(lines.join('\n')).digest('base64');
    this.signatures.set(key, digest);
    return digest;
  }

  /** Blank-node objects of `subject`'s quads, by predicate. */
  blankChildren(subject: string): Map<string, BlankNode[]> {
    const children = new Map<string, BlankNode[]>();
    for (const q of this.bySubject.get(subject) ?? []) {
      if (!isBlank(q.object)) continue;
      const p = q.predicate.value;
      const list = children.get(p);
      if (list) list.push(q.object);
      else children.set(p, [q.object]);
    }
    return children;
  }
}

/** Pairs the new graph's blank nodes with the old one's (new label -> old label). */
function pairBlankNodes(old: Side, fresh: Side): Map<string, string> {
  const pairs = new Map<string, string>();
  const taken = new Set<string>();
  const queue: [string, string][] = [];
  for (const subject of fresh.bySubject.keys()) if (!subject.startsWith('_:') && old.bySubject.has(subject)) queue.push([subject, subject]);
  const pair = (f: BlankNode, o: BlankNode) => {
    pairs.set(f.value, o.value);
    taken.add(o.value);
    queue.push([termKey(f), termKey(o)]);
  };
  for (let next = queue.pop(); next; next = queue.pop()) {
    const oldChildren = old.blankChildren(next[1]);
    for (const [predicate, freshNodes] of fresh.blankChildren(next[0])) {
      const candidates = (oldChildren.get(predicate) ?? []).filter((o) => !taken.has(o.value));
      const waiting = freshNodes.filter((f) => !pairs.has(f.value));
      // Identical subtrees first, then the rest in order: a changed party keeps its unchanged address.
      for (const f of [...waiting]) {
        const i = candidates.findIndex((o) => old.signature(o) === fresh.signature(f));
        if (i < 0) continue;
        pair(f, candidates[i]!);
        candidates.splice(i, 1);
        waiting.splice(waiting.indexOf(f), 1);
      }
      waiting.forEach((f, i) => {
        const candidate = candidates[i];
        if (candidate !== undefined) pair(f, candidate);
      });
    }
  }
  return pairs;
}

/** `oldQuads` and `newQuads` are the quads of one graph, as plain terms (parseQuads). */
export function graphDiff(oldQuads: readonly Quad[], newQuads: readonly Quad[]): GraphDiff {
  const old = new Side(oldQuads);
  const fresh = new Side(newQuads);
  const pairs = pairBlankNodes(old, fresh);
  const unpaired = `d${randomUUID().replace(/-/g, '')}_`;
  const renamed = new Map<string, BlankNode>();
  const rename = <T extends Node>(term: T): T => {
    if (!isBlank(term)) return term;
    let node = renamed.get(term.value);
    if (!node) {
      node = DataFactory.blankNode(pairs.get(term.value) ?? `${unpaired}${renamed.size}`);
      renamed.set(term.value, node);
    }
    return node as T;
  };
  const wanted = new Map<string, Quad>();
  for (const q of newQuads) {
    const mapped = DataFactory.quad(rename(q.subject), q.predicate, rename(q.object), q.graph);
    wanted.set(quadKey(mapped), mapped);
  }
  const remove: Quad[] = [];
  for (const q of oldQuads) {
    const key = quadKey(q);
    if (wanted.has(key)) wanted.delete(key);
    else remove.push(q);
  }
  return { remove, add: [...wanted.values()] };
}

/** N-Quads (or the N-Triples of one graph, given `graph`) as plain terms, blank-node labels as written. */
export function parseQuads(text: string, graph?: string): Quad[] {
  if (text.length === 0) return [];
  const parsed = new Parser({ format: graph === undefined ? 'N-Quads' : 'N-Triples', blankNodePrefix: '' }).parse(text);
  if (graph === undefined) return parsed;
  const g = DataFactory.namedNode(graph);
  return parsed.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g));
}
