import { DataFactory } from 'n3';
import { QueryBank } from '../../queries/query-bank.js';
import { termToString } from '../../rdf/terms.js';
import { asDropAndInsert, type Change, type ChangeOp } from '../quad-store.js';
import { fill } from '../update-text.js';
import { addQuadLines, checkedTerm, graphBlocks } from './sparql-server-text.js';

const { namedNode } = DataFactory;

/** A change's operations, each as Update text or as an insert's N-Triples lines per graph. */
export type Prepared = (string | Map<string, string[]>)[];

/**
 * Changes as SPARQL Update text from the templates in sparql/store/: each operation rendered, and
 * consecutive inserts merged into one INSERT DATA, graph by graph.
 */
export class UpdateRender {
  private readonly templates = new QueryBank();

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

  joined(changes: Prepared[]): string {
    const parts: string[] = [];
    let inserts = new Map<string, string[]>();
    for (const piece of changes.flat()) {
      if (typeof piece !== 'string') {
        for (const [graph, lines] of piece) {
          const into = inserts.get(graph);
          if (into) into.push(...lines);
          else inserts.set(graph, [...lines]);
        }
        continue;
      }
      if (inserts.size > 0) parts.push(fill(this.templates.text('store/insert-data'), { data: graphBlocks(inserts) }));
      inserts = new Map();
      parts.push(piece);
    }
    if (inserts.size > 0) parts.push(fill(this.templates.text('store/insert-data'), { data: graphBlocks(inserts) }));
    return parts.join(' ;\n');
  }

  private operation(op: Exclude<ChangeOp, { op: 'insert' | 'replaceGraph' }>): string {
    switch (op.op) {
      case 'dropGraph':
        return fill(this.templates.text('store/drop-graph'), { graph: termToString(namedNode(op.graph)) });
      case 'deleteMatching':
        return fill(this.templates.text('store/delete-matching'), {
          graph: termToString(namedNode(op.graph)),
          subject: op.subject === null ? '?s' : checkedTerm(op.subject),
          predicate: op.predicate === null ? '?p' : checkedTerm(op.predicate),
          object: op.object === null ? '?o' : checkedTerm(op.object),
        });
    }
  }
}
