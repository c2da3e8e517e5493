import { DataFactory } from 'n3';
import { QueryBank } from '../../core/queries/query-bank.js';
import { termToString } from '../../core/rdf/terms.js';
import { asDropAndInsert, type Change, type ChangeOp } from '../../core/ports/quad-store.js';
import { fill } from './update-text.js';
import { addQuadLines, checkedTerm, graphBlocks } from './sparql-server-text.js';

const { namedNode } = DataFactory;

/**
 * A delete of every triple of one subject in one graph (`clears`: the subject's N-Triples term and the
 * graph), rendered: a usage record or a state rewritten whole is deleted so, then inserted again.
 */
interface Clear {
  text: string;
  subject: string;
  graph: string;
}

/** A change's operations, each as Update text, a clear, or an insert's N-Triples lines per graph. */
export type Prepared = (string | Clear | Map<string, string[]>)[];

const clearKey = (clear: Clear): string => `${clear.graph} ${clear.subject}`;

/**
 * The most triples one fenced insert carries. A fenced insert is an INSERT template (with a WHERE on
 * the epoch), which Virtuoso compiles to SQL triple by triple, and it refuses a template past about
 * 1,500 triples ("SP031 … exceeded 10000 lines of code": 1,200 taken, 2,000 refused, Virtuoso 7.2):
 * a large Create, or a batch of Creates, failed whole with everything queued behind it. Longer
 * inserts go as several, in the same request. INSERT DATA has no such limit.
 */
export const FENCED_INSERT_LINES = 1_000;

/** `pending`'s lines per graph, cut into maps of at most `max` lines each, in order. */
function chunked(pending: Map<string, string[]>, max: number): Map<string, string[]>[] {
  const chunks: Map<string, string[]>[] = [];
  let chunk = new Map<string, string[]>();
  let size = 0;
  for (const [graph, lines] of pending) {
    for (let at = 0; at < lines.length;) {
      if (size === max) {
        chunks.push(chunk);
        chunk = new Map();
        size = 0;
      }
      const part = lines.slice(at, at + max - size);
      chunk.set(graph, [...(chunk.get(graph) ?? []), ...part]);
      size += part.length;
      at += part.length;
    }
  }
  if (size > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Changes as SPARQL Update text from the templates in sparql/store/: each operation rendered, and
 * consecutive inserts merged into one INSERT DATA, graph by graph.
 */
export class UpdateRender {
  private readonly templates = new QueryBank();
  /** The templates by op, each filled with the writer's epoch when its updates are fenced. */
  private readonly texts: { insertData: string; dropGraph: string; deleteMatching: string };
  /** How many triples one insert may carry: unbounded for INSERT DATA, FENCED_INSERT_LINES for a fenced one. */
  private readonly insertLines: number;
  /** The operation heading each request when the whole request is fenced at once (`guard`), else undefined. */
  private readonly guardText: string | undefined;

  /**
   * `epoch`: a replica set's writer's (docs/replicas.md); its updates then apply only while the store
   * holds it. `guard` (the server profile's fenceGuard): one guard operation heads each request and
   * fails it whole otherwise, and the operations keep the plain templates (INSERT DATA: about 5 times
   * cheaper on Virtuoso than a template fenced triple by triple); without it, each operation is fenced.
   */
  constructor(epoch?: number, guard = false) {
    if (epoch !== undefined && !Number.isSafeInteger(epoch)) throw new Error(`not an epoch: ${epoch}`);
    const each = epoch !== undefined && !guard;
    const name = (op: string) => (each ? `store/fenced-${op}` : `store/${op}`);
    const text = (op: string) => fill(this.templates.text(name(op)), { epoch: String(epoch) });
    this.texts = { insertData: text('insert-data'), dropGraph: text('drop-graph'), deleteMatching: text('delete-matching') };
    this.insertLines = each ? FENCED_INSERT_LINES : Infinity;
    this.guardText = epoch !== undefined && guard ? fill(this.templates.text('store/fence-guard'), { epoch: String(epoch) }) : undefined;
  }

  /** A change's operations rendered: Update text, or the insert's lines per graph (merged later). */
  prepared(change: Change): Prepared {
    return change.ops
      .flatMap((o) => (o.op === 'replaceGraph' ? asDropAndInsert(o) : [o]))
      .map((op) => {
        if (op.op !== 'insert') return this.operation(op);
        const lines = new Map<string, string[]>();
        addQuadLines(op.nquads, lines);
        return lines;
      });
  }

  /**
   * One Update for a batch of changes, with the same result as applying them in order. A clear that the
   * batch clears again later is left out, with the lines it would have seen inserted for that subject
   * and graph: the later clear removes them either way. A clear that stays goes as early as it can:
   * before everything but an insert of that subject in that graph (a clear commutes with every drop,
   * delete and clear, and with inserts of other subjects), so the inserts around it join into one
   * INSERT DATA. A batch of 15 Creates, each rewriting its publisher's usage record and writing its
   * consignment's, was 30 DELETEs splitting the inserts into 31 INSERT DATA; it is now 16 DELETEs first
   * and one INSERT DATA.
   */
  joined(changes: Prepared[]): string {
    const items: Prepared = [];
    for (const piece of withoutSuperseded(changes.flat())) {
      if (!isClear(piece)) {
        items.push(piece);
        continue;
      }
      let at = items.length;
      while (at > 0 && !inserts(items[at - 1]!, piece)) at--;
      items.splice(at, 0, piece);
    }
    const parts: string[] = [];
    let pending = new Map<string, string[]>();
    const flush = () => {
      for (const chunk of chunked(pending, this.insertLines)) parts.push(fill(this.texts.insertData, { data: graphBlocks(chunk) }));
      pending = new Map();
    };
    for (const item of items) {
      if (item instanceof Map) {
        for (const [graph, lines] of item) {
          const into = pending.get(graph);
          if (into) into.push(...lines);
          else pending.set(graph, [...lines]);
        }
        continue;
      }
      flush();
      parts.push(typeof item === 'string' ? item : item.text);
    }
    flush();
    if (this.guardText !== undefined && parts.length > 0) parts.unshift(this.guardText);
    return parts.join(' ;\n');
  }

  private operation(op: Exclude<ChangeOp, { op: 'insert' | 'replaceGraph' }>): string | Clear {
    switch (op.op) {
      case 'dropGraph':
        return fill(this.texts.dropGraph, { graph: termToString(namedNode(op.graph)) });
      case 'deleteMatching': {
        const graph = termToString(namedNode(op.graph));
        const subject = op.subject === null ? '?s' : checkedTerm(op.subject);
        const text = fill(this.texts.deleteMatching, {
          graph,
          subject,
          predicate: op.predicate === null ? '?p' : checkedTerm(op.predicate),
          object: op.object === null ? '?o' : checkedTerm(op.object),
        });
        // Only an IRI subject: the insert lines it is compared with carry IRIs as written (blank nodes skolemised).
        return op.subject !== null && subject.startsWith('<') && op.predicate === null && op.object === null
          ? { text, subject, graph: op.graph }
          : text;
      }
    }
  }
}

function isClear(piece: Prepared[number]): piece is Clear {
  return typeof piece === 'object' && !(piece instanceof Map);
}

/** The first word of an N-Triples line: its subject. */
const subjectOf = (line: string): string => line.slice(0, line.indexOf(' '));

/** Whether `piece` inserts a triple of `clear`'s subject in its graph (a clear must stay after it). */
function inserts(piece: Prepared[number], clear: Clear): boolean {
  return piece instanceof Map && (piece.get(clear.graph)?.some((line) => subjectOf(line) === clear.subject) ?? false);
}

/** `pieces` without the clears cleared again later, nor the lines inserted for their subject in between. */
function withoutSuperseded(pieces: Prepared): Prepared {
  const lastClear = new Map<string, number>();
  pieces.forEach((piece, i) => {
    if (isClear(piece)) lastClear.set(clearKey(piece), i);
  });
  /** Subjects (by graph) cleared again later: what is inserted for them now is cleared then. */
  const superseded = new Map<string, Set<string>>();
  const kept: Prepared = [];
  for (const [i, piece] of pieces.entries()) {
    if (piece instanceof Map) {
      const lines = new Map<string, string[]>();
      for (const [graph, all] of piece) {
        const gone = superseded.get(graph);
        const left = gone ? all.filter((line) => !gone.has(subjectOf(line))) : all;
        if (left.length > 0) lines.set(graph, left);
      }
      if (lines.size > 0) kept.push(lines);
      continue;
    }
    if (isClear(piece)) {
      const later = lastClear.get(clearKey(piece))! > i;
      const gone = superseded.get(piece.graph) ?? new Set<string>();
      if (later) gone.add(piece.subject);
      else gone.delete(piece.subject);
      superseded.set(piece.graph, gone);
      if (later) continue;
    }
    kept.push(piece);
  }
  return kept;
}
