import { QueryBank } from '../../core/queries/query-bank.js';
import { isSafeIri } from '../../core/rdf/terms.js';
import { asDropAndInsert, type ChangeOp } from '../../core/ports/quad-store.js';

/** Puts already-serialised terms into a store/*.rq template (`$name` → text). */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$([A-Za-z]+)/g, (whole, name: string) => values[name] ?? whole);
}

export class InvalidChangeError extends Error {
  override readonly name = 'InvalidChangeError';
}

// An N-Triples literal: escapes only as N-Triples allows them, then a language tag or a datatype IRI.
const LITERAL =
  /^"(?:[^"\\\n\r]|\\[tbnrf"'\\]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^<[^\u0000-\u0020<>"{}|^`\\]+>)?$/;

const iriTerm = (text: string): boolean => text.startsWith('<') && text.endsWith('>') && isSafeIri(text.slice(1, -1));

/**
 * One position of a deleteMatching op as update text: a variable when open, else the term, which must
 * be an IRI or a literal. Nothing else reaches the update: a blank node would match anything there
 * (it is a variable in DELETE WHERE), and any other text could change the update's meaning.
 */
function matchTerm(text: string | null, variable: string): string {
  if (text === null) return variable;
  if (iriTerm(text) || LITERAL.test(text)) return text;
  throw new InvalidChangeError(`Not an IRI or literal term: ${JSON.stringify(text.slice(0, 200))}`);
}

function graphTerm(graph: string): string {
  if (!isSafeIri(graph)) throw new InvalidChangeError(`Not a graph IRI: ${JSON.stringify(graph.slice(0, 200))}`);
  return `<${graph}>`;
}

/** Throws InvalidChangeError for a deleteMatching op the update text would refuse (what a store applying it directly checks first). */
export function checkDeleteMatching(op: Extract<ChangeOp, { op: 'deleteMatching' }>): void {
  graphTerm(op.graph);
  matchTerm(op.subject, '?s');
  matchTerm(op.predicate, '?p');
  matchTerm(op.object, '?o');
}

/**
 * N-Quads → the body of INSERT DATA, one GRAPH block per graph. Every quad must name its graph (as
 * every quad the node writes does): the graph is the last term of its line. A line without one would
 * make its object the graph and leave the triple short, which the update parser refuses as a whole.
 */
function insertDataBody(nquads: string): string {
  const byGraph = new Map<string, string[]>();
  for (const line of nquads.split('\n')) {
    if (line.length === 0) continue;
    const at = line.lastIndexOf(' <');
    if (at < 0 || !line.endsWith('> .')) throw new InvalidChangeError(`Not a quad naming its graph: ${JSON.stringify(line.slice(0, 200))}`);
    const graph = line.slice(at + 1, -2);
    let lines = byGraph.get(graph);
    if (!lines) byGraph.set(graph, (lines = []));
    lines.push(`${line.slice(0, at)} .`);
  }
  let body = '';
  for (const [graph, lines] of byGraph) body += `GRAPH ${graph} {\n${lines.join('\n')}\n}\n`;
  return body;
}

/**
 * A change as ONE SPARQL Update request for the embedded store: the store parses the whole request
 * before it executes any of it, so a change with one bad quad applies nothing. Dropping a graph this
 * way costs a small fraction of deleting its quads one by one (the figures: bench/results/2026-12-07-comment-figures.md).
 */
export class UpdateText {
  private readonly templates: { drop: string; deleteMatching: string; insertData: string };

  constructor(queries: QueryBank = new QueryBank()) {
    this.templates = {
      drop: queries.text('store/drop-graph'),
      deleteMatching: queries.text('store/delete-matching'),
      insertData: queries.text('store/insert-data'),
    };
  }

  of(ops: readonly ChangeOp[]): string {
    const parts: string[] = [];
    for (const op of ops.flatMap((o) => (o.op === 'replaceGraph' ? asDropAndInsert(o) : [o]))) {
      switch (op.op) {
        case 'dropGraph':
          parts.push(fill(this.templates.drop, { graph: graphTerm(op.graph) }));
          break;
        case 'deleteMatching':
          parts.push(
            fill(this.templates.deleteMatching, {
              graph: graphTerm(op.graph),
              subject: matchTerm(op.subject, '?s'),
              predicate: matchTerm(op.predicate, '?p'),
              object: matchTerm(op.object, '?o'),
            }),
          );
          break;
        case 'insert': {
          const body = insertDataBody(op.nquads);
          if (body.length > 0) parts.push(fill(this.templates.insertData, { data: body }));
          break;
        }
      }
    }
    return parts.join(' ;\n');
  }
}
