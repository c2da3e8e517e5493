import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import oxigraph from 'oxigraph';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { iri } from '../../../core/queries/query-bank.js';
import { svc } from '../../../core/rdf/namespaces.js';
import { termToString } from '../../../core/rdf/terms.js';
import type { OxigraphStore } from '../oxigraph-store.js';
import type { QuadStore } from '../../../core/ports/quad-store.js';
import { UNIT_SEPARATOR } from './snapshot-files.js';

export type BackupFormat = 'nquads' | 'trig';

/** Whether `dataDir` holds an embedded store: a change log or a snapshot. */
export const holdsStore = (dataDir: string): boolean =>
  existsSync(dataDir) && readdirSync(dataDir).some((f) => /^(changes-\d+\.log|snapshot-\d+\.nq|changes\.log)$/.test(f));

export const formatOf = (path: string): BackupFormat => (/\.trig$/i.test(path) ? 'trig' : 'nquads');

/** Kept out of a backup unless asked for: the secrets signals are signed with, which the store holds in clear. */
const SECRET_PREDICATES = [svc('notificationSecret')].map((p) => `<${p}>`);

export interface ExportResult {
  graphs: number;
  triples: number;
  secretsLeftOut: number;
}

/** One graph's triples as N-Triples lines. */
type GraphSource = { graphs(): Promise<string[]>; triples(graph: string): Promise<string> };

/** The embedded store's graphs, each read from the Oxigraph store that holds it. */
export function embeddedSource(store: OxigraphStore, queries: QueryBank): GraphSource {
  return {
    graphs: async () =>
      store.stores.flatMap((held) =>
        (held.query(queries.text('store/named-graphs')) as Map<string, oxigraph.Term>[]).map((r) => r.get('g')!.value),
      ),
    triples: async (graph) => store.holding(graph).dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(graph) }),
  };
}

export function sparqlSource(store: QuadStore, queries: QueryBank): GraphSource {
  return {
    graphs: async () => (await store.select(queries.text('store/node-graphs'))).map((r) => r.get('g')!.value),
    triples: async (graph) =>
      (await store.construct(queries.bind('ingest/graph-quads', { graph: iri(graph) })))
        .map((q) => `${termToString(q.subject)} ${termToString(q.predicate)} ${termToString(q.object)} .\n`)
        .join(''),
  };
}

/**
 * Writes every graph of the node to `path`, graph by graph: N-Quads (with `#` lines between graphs, so
 * an import can load it in chunks without splitting blank nodes) or TriG.
 */
export async function exportGraphs(
  source: GraphSource,
  path: string,
  options: { includeSecrets: boolean; onProgress?: (graphsDone: number, graphsTotal: number) => void },
): Promise<ExportResult> {
  const format = formatOf(path);
  const fd = openSync(path, 'w', 0o600);
  const result: ExportResult = { graphs: 0, triples: 0, secretsLeftOut: 0 };
  try {
    const graphs = (await source.graphs()).sort();
    for (const [i, graph] of graphs.entries()) {
      options.onProgress?.(i, graphs.length);
      let lines = (await source.triples(graph)).split('\n').filter((l) => l.length > 0);
      if (!options.includeSecrets) {
        const kept = lines.filter((l) => !SECRET_PREDICATES.some((p) => l.includes(` ${p} `)));
        result.secretsLeftOut += lines.length - kept.length;
        lines = kept;
      }
      if (lines.length === 0) continue;
      const g = termToString(oxigraph.namedNode(graph));
      const text =
        format === 'trig'
          ? `${g} {\n${lines.join('\n')}\n}\n`
          : `${lines.map((l) => `${l.slice(0, -1).trimEnd()} ${g} .`).join('\n')}\n${UNIT_SEPARATOR}`;
      writeSync(fd, text);
      result.graphs += 1;
      result.triples += lines.length;
    }
    options.onProgress?.(graphs.length, graphs.length);
  } finally {
    closeSync(fd);
  }
  return result;
}

/** A backup file as N-Quads text per graph, in file order, for a SPARQL server (one insert per graph). */
export function* graphsOfFile(path: string): Generator<string> {
  const format = formatOf(path);
  const quads = oxigraph.parse(readFileSync(path, 'utf8'), { format: format === 'trig' ? 'application/trig' : 'application/n-quads' });
  const byGraph = new Map<string, string[]>();
  for (const q of quads) {
    if (q.graph.termType !== 'NamedNode') continue;
    let lines = byGraph.get(q.graph.value);
    if (!lines) byGraph.set(q.graph.value, (lines = []));
    lines.push(`${q.toString()} .`);
  }
  for (const lines of byGraph.values()) yield `${lines.join('\n')}\n`;
}
