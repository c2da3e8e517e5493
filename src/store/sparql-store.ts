import type { Quad, Term } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { QueryBank } from '../queries/query-bank.js';
import { termToString } from '../rdf/terms.js';
import type { Bindings, Change, ChangeOp, Committed, QueryDataset, QuadStore } from './quad-store.js';
import type { SparqlStoreConfig } from './store-config.js';

const { namedNode, blankNode, literal } = DataFactory;

/**
 * Stands for "no graph" in a dataset: the protocol cannot say "the default graph is empty" by
 * leaving default-graph-uri out (Virtuoso then uses every graph), so an empty list names this one,
 * which nothing ever writes.
 */
export const NO_GRAPH = 'urn:dataspace:graph:none';

export class SparqlStoreError extends Error {
  override readonly name = 'SparqlStoreError';
}

interface JsonTerm {
  type: 'uri' | 'literal' | 'typed-literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

interface JsonResults {
  boolean?: boolean;
  results?: { bindings: Record<string, JsonTerm>[] };
}

function toTerm(t: JsonTerm): Term {
  switch (t.type) {
    case 'uri':
      return namedNode(t.value);
    case 'bnode':
      return blankNode(t.value.replace(/^_:/, '').replace(/[^A-Za-z0-9_-]/g, '_'));
    default:
      return literal(t.value, t['xml:lang'] ?? (t.datatype ? namedNode(t.datatype) : undefined));
  }
}

/** One N-Triples term of a change op, checked by parsing (nothing unparsed reaches the update text). */
function checkedTerm(text: string): string {
  const [quad] = new Parser({ format: 'N-Triples' }).parse(`<urn:x:s> <urn:x:p> ${text} .`);
  if (!quad) throw new SparqlStoreError(`Not an N-Triples term: ${text}`);
  if (quad.object.termType === 'BlankNode') throw new SparqlStoreError('A blank node cannot be named in a delete on a SPARQL server');
  return termToString(quad.object);
}

/** N-Quads → the body of INSERT DATA: one GRAPH block per graph, N-Triples inside. */
function quadData(nquads: string): string {
  const byGraph = new Map<string, string[]>();
  for (const q of new Parser({ format: 'N-Quads' }).parse(nquads)) {
    if (q.graph.termType !== 'NamedNode') throw new SparqlStoreError('Every quad written to the SPARQL store must name its graph');
    let lines = byGraph.get(q.graph.value);
    if (!lines) byGraph.set(q.graph.value, lines = []);
    lines.push(`${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)} .`);
  }
  return [...byGraph].map(([g, lines]) => `GRAPH ${termToString(namedNode(g))} {\n${lines.join('\n')}\n}`).join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$([A-Za-z]+)/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The store on any SPARQL 1.1 Query/Update server, over plain protocol requests (POST, form-encoded).
 * One Change is one Update request, so the server applies it atomically; the dataset of a query is
 * sent as default-graph-uri / named-graph-uri, which the protocol says override any FROM in the text.
 */
export class SparqlStore implements QuadStore {
  private readonly authorization: string | undefined;
  private readonly templates = new QueryBank();

  constructor(private readonly config: SparqlStoreConfig, private readonly fetchImpl: typeof fetch = fetch) {
    this.authorization = config.user === undefined
      ? undefined
      : `Basic ${Buffer.from(`${config.user}:${config.password ?? ''}`).toString('base64')}`;
  }

  /** Fails at start with a clear message when the server cannot be reached or refuses us. */
  async check(): Promise<void> {
    await this.ask(this.templates.text('store/ping'));
  }

  private async post(url: string, form: URLSearchParams, accept: string): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept };
    if (this.authorization) headers.authorization = this.authorization;
    let res: Response;
    try {
      res = await this.fetchImpl(url, { method: 'POST', headers, body: form, signal: AbortSignal.timeout(this.config.timeoutMs) });
    } catch (error) {
      throw new SparqlStoreError(`The SPARQL server at ${url} did not answer: ${(error as Error).message}`);
    }
    if (!res.ok) {
      const text = (await res.text()).slice(0, 500);
      throw new SparqlStoreError(`The SPARQL server at ${url} answered ${res.status}: ${text}`);
    }
    return res;
  }

  private queryForm(query: string, dataset?: QueryDataset): URLSearchParams {
    const form = new URLSearchParams({ query });
    if (dataset) {
      for (const g of dataset.defaultGraphs.length > 0 ? dataset.defaultGraphs : [NO_GRAPH]) form.append('default-graph-uri', g);
      for (const g of dataset.namedGraphs.length > 0 ? dataset.namedGraphs : [NO_GRAPH]) form.append('named-graph-uri', g);
    }
    return form;
  }

  private async results(query: string, dataset?: QueryDataset): Promise<JsonResults> {
    const res = await this.post(this.config.queryUrl, this.queryForm(query, dataset), 'application/sparql-results+json');
    return await res.json() as JsonResults;
  }

  async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    const json = await this.results(query, dataset);
    return (json.results?.bindings ?? []).map((row) => new Map(Object.entries(row).map(([name, t]) => [name, toTerm(t)])));
  }

  async ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    const json = await this.results(query, dataset);
    if (typeof json.boolean !== 'boolean') throw new SparqlStoreError('The SPARQL server answered an ASK without a boolean');
    return json.boolean;
  }

  async construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    const res = await this.post(this.config.queryUrl, this.queryForm(query, dataset), 'application/n-triples, text/plain;q=0.9, text/turtle;q=0.8');
    // N-Triples is Turtle too, so one parser reads whichever the server picked.
    return new Parser({ format: 'Turtle' }).parse(await res.text());
  }

  async queryRaw(query: string, dataset: QueryDataset, format: string): Promise<string> {
    const res = await this.post(this.config.queryUrl, this.queryForm(query, dataset), format);
    return res.text();
  }

  /** The Update text of one change: its operations in order, separated by `;`. */
  updateText(change: Change): string {
    return change.ops.map((op) => this.operation(op)).filter((text) => text.length > 0).join(' ;\n');
  }

  private operation(op: ChangeOp): string {
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
      case 'insert': {
        const data = quadData(op.nquads);
        return data.length === 0 ? '' : fill(this.templates.text('store/insert-data'), { data });
      }
    }
  }

  async commit(change: Change): Promise<Committed> {
    const update = this.updateText(change);
    if (update.length > 0) await this.post(this.config.updateUrl, new URLSearchParams({ update }), 'application/json, text/plain;q=0.5, */*;q=0.1');
    // The server answered after applying the whole request; how it survives a crash is its own log's job.
    return { durable: Promise.resolve() };
  }

  async size(): Promise<number> {
    const [row] = await this.select(this.templates.text('store/count-quads'));
    return Number(row?.get('n')?.value ?? 0);
  }

  async close(): Promise<void> {
    // Nothing is buffered on this side.
  }
}
