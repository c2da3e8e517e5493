import { createHash, randomUUID } from 'node:crypto';
import oxigraph from 'oxigraph';
import type { Change, ChangeOp } from './quad-store.js';
import { InvalidChangeError, type UpdateText } from './update-text.js';

/**
 * What replacing a graph's quads by new ones has to change, so the embedded store can replace a graph
 * by deleting and adding only what differs instead of dropping it and loading it again.
 *
 * Why: Oxigraph's in-memory store never frees a removed quad (compaction-policy.ts), so an Update that
 * drops a consignment's state graph and loads it again keeps every old quad in memory, ~40 for a
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
  remove: oxigraph.Quad[];
  /** New quads the old graph does not hold, their blank nodes renamed to the old ones they were paired with. */
  add: oxigraph.Quad[];
}

type Node = oxigraph.Quad['subject'] | oxigraph.Quad['object'];

const isBlank = (term: Node): term is oxigraph.BlankNode => term.termType === 'BlankNode';
const quadKey = (q: oxigraph.Quad): string => `${q.subject.toString()} ${q.predicate.toString()} ${q.object.toString()}`;

/** The quads of one graph by subject, with the identical-subtree signature of each blank node. */
class Side {
  readonly bySubject = new Map<string, oxigraph.Quad[]>();
  private readonly signatures = new Map<string, string>();

  constructor(readonly quads: readonly oxigraph.Quad[]) {
    for (const q of quads) {
      const key = q.subject.toString();
      const list = this.bySubject.get(key);
      if (list) list.push(q);
      else this.bySubject.set(key, [q]);
    }
  }

  /** A digest of what hangs from a blank node, the same for two nodes with identical subtrees. */
  signature(node: oxigraph.BlankNode, visiting = new Set<string>()): string {
    const key = node.toString();
    const known = this.signatures.get(key);
    if (known !== undefined) return known;
    // A cycle through blank nodes (never made by JSON-LD trees): this node matches nothing by content.
    if (visiting.has(key)) return `cycle ${key}`;
    visiting.add(key);
    const lines = (this.bySubject.get(key) ?? [])
      .map((q) => `${q.predicate.toString()} ${isBlank(q.object) ? `[${this.signature(q.object, visiting)}]` : q.object.toString()}`)
      .sort();
    visiting.delete(key);
    const digest = createHash('sha1').update(lines.join('\n')).digest('base64');
    this.signatures.set(key, digest);
    return digest;
  }

  /** Blank-node objects of `subject`'s quads, by predicate. */
  blankChildren(subject: string): Map<string, oxigraph.BlankNode[]> {
    const children = new Map<string, oxigraph.BlankNode[]>();
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

/** Pairs the new graph's blank nodes with the old one's (new id -> old id). */
function pairBlankNodes(old: Side, fresh: Side): Map<string, string> {
  const pairs = new Map<string, string>();
  const taken = new Set<string>();
  const queue: [string, string][] = [];
  for (const subject of fresh.bySubject.keys()) if (!subject.startsWith('_:') && old.bySubject.has(subject)) queue.push([subject, subject]);
  const pair = (f: oxigraph.BlankNode, o: oxigraph.BlankNode) => {
    pairs.set(f.value, o.value);
    taken.add(o.value);
    queue.push([f.toString(), o.toString()]);
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
        pair(f, candidates[i]);
        candidates.splice(i, 1);
        waiting.splice(waiting.indexOf(f), 1);
      }
      waiting.forEach((f, i) => { if (i < candidates.length) pair(f, candidates[i]); });
    }
  }
  return pairs;
}

export function graphDiff(oldQuads: readonly oxigraph.Quad[], newQuads: readonly oxigraph.Quad[]): GraphDiff {
  const old = new Side(oldQuads);
  const fresh = new Side(newQuads);
  const pairs = pairBlankNodes(old, fresh);
  const unpaired = `d${randomUUID().replace(/-/g, '')}_`;
  const renamed = new Map<string, oxigraph.BlankNode>();
  const rename = <T extends Node>(term: T): T => {
    if (!isBlank(term)) return term;
    let node = renamed.get(term.value);
    if (!node) {
      node = oxigraph.blankNode(pairs.get(term.value) ?? `${unpaired}${renamed.size}`);
      renamed.set(term.value, node);
    }
    return node as T;
  };
  const wanted = new Map<string, oxigraph.Quad>();
  for (const q of newQuads) {
    const mapped = oxigraph.quad(rename(q.subject), q.predicate, rename(q.object), q.graph);
    wanted.set(quadKey(mapped), mapped);
  }
  const remove: oxigraph.Quad[] = [];
  for (const q of oldQuads) {
    const key = quadKey(q);
    if (wanted.has(key)) wanted.delete(key);
    else remove.push(q);
  }
  return { remove, add: [...wanted.values()] };
}

/**
 * Makes `graph` in `store` hold exactly `quads` (parsed from `nquads`) by deleting and adding only the
 * quads that differ. A graph that holds nothing yet is loaded, which is faster than adding one by one.
 */
export function replaceInPlace(store: oxigraph.Store, graph: string, nquads: string, quads: oxigraph.Quad[]): { removed: number; added: number } {
  const old = store.match(null, null, null, oxigraph.namedNode(graph));
  if (old.length === 0) {
    if (nquads.length > 0) store.load(nquads, { format: 'application/n-quads', lenient: true });
    return { removed: 0, added: quads.length };
  }
  const { remove, add } = graphDiff(old, quads);
  for (const quad of remove) store.delete(quad);
  for (const quad of add) store.add(quad);
  return { removed: remove.length, added: add.length };
}

/** Parses N-Quads text; `lenient` skips the checks a replayed record passed when it was committed. */
export function parseNQuads(nquads: string, lenient = true): oxigraph.Quad[] {
  return nquads.length === 0 ? [] : oxigraph.parse(nquads, { format: 'application/n-quads', lenient });
}

/**
 * Checks a change that replaces a graph in place before any of it is applied, since it is applied op
 * by op: the Update text of its drops and deletes is rendered for its checks (InvalidChangeError), its
 * N-Quads are parsed strictly, and a replaceGraph must hold quads of its own graph only. Answers the
 * parsed quads of each insert and replaceGraph, index-aligned with the ops.
 */
export function checkedInPlace(change: Change, updateText: UpdateText): (oxigraph.Quad[] | undefined)[] {
  updateText.of(change.ops.flatMap((op): ChangeOp[] => (op.op === 'insert' ? [] : op.op === 'replaceGraph' ? [{ op: 'dropGraph', graph: op.graph }] : [op])));
  return change.ops.map((op) => {
    if (op.op !== 'insert' && op.op !== 'replaceGraph') return undefined;
    const quads = parseNQuads(op.nquads, false);
    if (op.op === 'replaceGraph' && quads.some((q) => q.graph.termType !== 'NamedNode' || q.graph.value !== op.graph)) {
      throw new InvalidChangeError(`A replaceGraph of ${op.graph} holds quads of another graph`);
    }
    return quads;
  });
}
