import oxigraph from 'oxigraph';
import type { Quad, Term } from '@rdfjs/types';
import type { Bindings, Change, Committed, ChangeOp, QueryDataset, QuadStore } from './quad-store.js';
import type { WriteAheadLog } from './write-ahead-log.js';

type OxTerm = oxigraph.NamedNode | oxigraph.BlankNode | oxigraph.Literal | oxigraph.DefaultGraph;

function parseTerm(text: string | null): OxTerm | null {
  if (text === null) return null;
  // One N-Triples term: reuse Oxigraph's parser on a one-triple document.
  const [quad] = oxigraph.parse(`<urn:x:s> <urn:x:p> ${text} .`, { format: 'application/n-triples' });
  return quad.object as OxTerm;
}

function datasetOptions(dataset?: QueryDataset): Record<string, unknown> {
  if (!dataset) return {};
  // Both must be given: with only default_graph, GRAPH ?g would still see every named graph.
  return {
    default_graph: dataset.defaultGraphs.map((g) => oxigraph.namedNode(g)),
    named_graphs: dataset.namedGraphs.map((g) => oxigraph.namedNode(g)),
  };
}

/** The embedded store: an in-memory Oxigraph store made durable by a write-ahead log. */
export class OxigraphStore implements QuadStore {
  readonly store = new oxigraph.Store();

  constructor(private readonly log?: WriteAheadLog) {}

  /** Applies a change to memory only: used by commit and by recovery replay. */
  apply(change: Change): void {
    for (const op of change.ops) this.applyOp(op);
  }

  private applyOp(op: ChangeOp): void {
    switch (op.op) {
      case 'dropGraph':
        for (const quad of this.store.match(null, null, null, oxigraph.namedNode(op.graph))) this.store.delete(quad);
        break;
      case 'deleteMatching': {
        const matches = this.store.match(
          parseTerm(op.subject), parseTerm(op.predicate), parseTerm(op.object), oxigraph.namedNode(op.graph),
        );
        for (const quad of matches) this.store.delete(quad);
        break;
      }
      case 'insert':
        if (op.nquads.length > 0) this.store.load(op.nquads, { format: 'application/n-quads' });
        break;
    }
  }

  async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    return this.store.query(query, datasetOptions(dataset)) as unknown as Bindings[];
  }

  /** Synchronous SELECT, for hot read paths that need no await. */
  selectSync(query: string, dataset?: QueryDataset): Bindings[] {
    return this.store.query(query, datasetOptions(dataset)) as unknown as Bindings[];
  }

  async ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    return this.store.query(query, datasetOptions(dataset)) as boolean;
  }

  async construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    return this.store.query(query, datasetOptions(dataset)) as unknown as Quad[];
  }

  async queryRaw(query: string, dataset: QueryDataset, format: string): Promise<string> {
    return this.store.query(query, { ...datasetOptions(dataset), results_format: format }) as string;
  }

  async commit(change: Change): Promise<Committed> {
    // Validate every term before touching memory, so a bad op cannot leave half a change applied.
    for (const op of change.ops) {
      if (op.op === 'deleteMatching') [op.subject, op.predicate, op.object].forEach(parseTerm);
      if (op.op === 'insert' && op.nquads.length > 0) oxigraph.parse(op.nquads, { format: 'application/n-quads' });
    }
    this.apply(change);
    return { durable: this.log ? this.log.append(change) : Promise.resolve() };
  }

  async size(): Promise<number> {
    return this.store.size;
  }

  async close(): Promise<void> {
    await this.log?.close();
  }
}

export type { Term };
