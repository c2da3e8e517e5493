import oxigraph from 'oxigraph';
import { GRAPHS } from '../../../core/rdf/namespaces.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { iri, list } from '../../../core/queries/query-bank.js';
import { coverageBindings } from '../../../core/policy/coverage-subject.js';
import type { EnginePrincipal } from './messages.js';

/** What a batch of changes did to the catalog, for VisibleGraphs. */
export class Touched {
  readonly subjects = new Set<string>();
  all = false;

  /** Catalog metadata about `subject` (N-Triples text) was added or removed. */
  subject(subject: string | null): void {
    // A blank node or a pattern over every subject cannot be traced: every caller starts over.
    if (subject === null || !subject.startsWith('<')) this.all = true;
    else this.subjects.add(subject.slice(1, -1));
  }
}

/** What a query of one caller runs over: the data graphs policy/visible-graphs gives that caller. */
export interface CallerGraphs {
  graphs: ReadonlySet<string>;
  /** The caller may see every data graph held: the query needs no list of graphs. */
  everything: boolean;
  /** The graphs as terms, made once per set of graphs. */
  nodes(): oxigraph.NamedNode[];
}

interface View {
  /** The batch of changes the graphs are up to date with. */
  seq: number;
  graphs: Set<string>;
  nodes?: oxigraph.NamedNode[];
  /** How many of the data graphs held are in `graphs`: all of them means the caller sees everything. */
  visibleData: number;
}

/**
 * Subjects touched by the batches a view may still catch up with, at most; older views start over.
 * Minutes of the soak's writes, in a few MB of strings (the figures: bench/results/2026-12-07-comment-figures.md).
 */
const MAX_REMEMBERED_SUBJECTS = 100_000;
/** Callers whose graphs are kept; the least recently asking one is dropped beyond this. */
const MAX_VIEWS = 64;
/**
 * A view further behind than this many subjects, or than an eighth of its graphs, is worked out
 * whole instead: catching up a subject costs several times what working out a graph does
 * (bench/visible-catch-up.ts; the figures: bench/results/2026-12-07-comment-figures.md). A fixed bound of 2,000 made a caller who asks
 * now and then (the forwarder, seeing every graph) start over after a few seconds of writes, holding
 * its engine thread for seconds each time on a large store.
 */
const MIN_CATCH_UP_SUBJECTS = 2_000;
const catchUpLimit = (graphs: number): number => Math.max(MIN_CATCH_UP_SUBJECTS, graphs / 8);

const METADATA = oxigraph.namedNode(GRAPHS.metadata);
const POLICIES = oxigraph.namedNode(GRAPHS.policies);
const N_TRIPLES = 'application/n-triples';

/**
 * The graphs each caller may see, kept across commits and brought up to date with what changed rather
 * than recomputed on every commit: under sustained writes every query used to run policy/visible-graphs
 * over the whole catalog (see docs/security-sparql-and-readers.md for the costs measured).
 *
 * Why an update can be exact: policy/visible-graphs answers ?graph for every consignment ?c the caller
 * is covered for and every (?graph svc:consignment ?c ; svc:kind ?kind) in the metadata; whether ?c is
 * covered depends only on the policies and on the metadata about ?c itself (COVERAGE_PREDICATES). So a
 * batch that touches the metadata of subjects S can change the answer only for the consignments S names
 * or links to (C) and the graphs linked to those (G). The same query, run over a probe store holding the
 * policies and the metadata of C and G only, gives exactly the visible graphs among them: they replace
 * what the view held for C and G. A change to the policies (or one that cannot be traced to subjects)
 * starts every view over. The rule itself stays in one place, the query.
 */
export class VisibleGraphs {
  private seq = 0;
  /** Views older than this start over (a policy change, or a change not traceable to subjects). */
  private resetAt = 0;
  /** Views older than this start over: the subjects touched since were forgotten. */
  private forgottenAt = 0;
  private readonly touched: { seq: number; subjects: string[] }[] = [];
  private remembered = 0;
  private readonly views = new Map<string, View>();
  private policyTriples: string | undefined;

  constructor(
    private readonly catalog: () => oxigraph.Store,
    private readonly queries: QueryBank,
    private readonly dataGraphs: () => ReadonlySet<string>,
  ) {}

  /** A data graph came to be held (`held`) or was dropped; called as the set of data graphs changes. */
  dataGraph(graph: string, held: boolean): void {
    for (const view of this.views.values()) if (view.graphs.has(graph)) view.visibleData += held ? 1 : -1;
  }

  /** A batch of changes was applied: `subjects` had catalog metadata added or removed; `all`: start every view over. */
  changed(subjects: ReadonlySet<string>, all: boolean): void {
    if (!all && subjects.size === 0) return;
    this.seq += 1;
    if (all) {
      this.resetAt = this.seq;
      this.touched.length = 0;
      this.remembered = 0;
      this.policyTriples = undefined;
      return;
    }
    this.touched.push({ seq: this.seq, subjects: [...subjects] });
    this.remembered += subjects.size;
    while (this.remembered > MAX_REMEMBERED_SUBJECTS && this.touched.length > 0) {
      const dropped = this.touched.shift()!;
      this.remembered -= dropped.subjects.length;
      this.forgottenAt = dropped.seq;
    }
  }

  /** Everything cached, dropped (the stores were replaced). */
  reset(): void {
    this.changed(new Set(), true);
    this.views.clear();
  }

  /** The graphs `principal` may see now. */
  of(principal: EnginePrincipal): CallerGraphs {
    const key = JSON.stringify(principal);
    let view = this.views.get(key);
    if (view) this.views.delete(key);
    if (!view || view.seq < this.resetAt || view.seq < this.forgottenAt) view = this.computed(principal);
    else if (view.seq < this.seq && !this.caughtUp(view, principal)) view = this.computed(principal);
    // Most recently asked last: the first one is the one to drop.
    this.views.set(key, view);
    if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value!);
    const current = view;
    const everything = current.visibleData === this.dataGraphs().size;
    return { graphs: current.graphs, everything, nodes: () => (current.nodes ??= [...current.graphs].map((g) => oxigraph.namedNode(g))) };
  }

  private query(principal: EnginePrincipal): string {
    return this.queries.bind('policy/visible-graphs', coverageBindings({ email: '', org: { ...principal, name: '' } }));
  }

  private computed(principal: EnginePrincipal): View {
    const graphs = new Set(iriColumn(this.catalog(), this.query(principal)));
    const data = this.dataGraphs();
    let visibleData = 0;
    for (const g of graphs) if (data.has(g)) visibleData += 1;
    return { seq: this.seq, graphs, visibleData };
  }

  /** Brings `view` up to date with the batches since its own; false when it is cheaper to start over. */
  private caughtUp(view: View, principal: EnginePrincipal): boolean {
    const subjects = new Set<string>();
    for (const batch of this.touched) if (batch.seq > view.seq) for (const s of batch.subjects) subjects.add(s);
    if (subjects.size > catchUpLimit(view.graphs.size)) return false;
    const catalog = this.catalog();
    // Whether a graph is visible depends on the policies and on the metadata of its consignment only:
    // the subjects touched, the consignments they link to, and the graphs linked to those are all a
    // batch can have changed the answer for.
    const consignments = new Set(subjects);
    for (const c of iriColumn(catalog, this.queries.bind('policy/linked-consignments', { subjects: list([...subjects].map(iri)) })))
      consignments.add(c);
    const affected = new Set(consignments);
    for (const g of iriColumn(catalog, this.queries.bind('policy/linked-graphs', { consignments: list([...consignments].map(iri)) })))
      affected.add(g);
    // As text, not term objects: a term object per quad kept the collector busy for longer than the
    // catch-up itself (bench/visible-catch-up.ts).
    this.policyTriples ??= catalog.query(this.queries.text('policy/policies-triples'), { results_format: N_TRIPLES }) as string;
    const probe = new oxigraph.Store();
    try {
      probe.load(this.policyTriples, { format: N_TRIPLES, to_graph_name: POLICIES });
      if (affected.size > 0) {
        const metadata = catalog.query(this.queries.bind('policy/metadata-of-subjects', { subjects: list([...affected].map(iri)) }), {
          results_format: N_TRIPLES,
        }) as string;
        probe.load(metadata, { format: N_TRIPLES, to_graph_name: METADATA });
      }
      const visibleNow = iriColumn(probe, this.query(principal));
      const data = this.dataGraphs();
      for (const subject of affected) if (view.graphs.delete(subject) && data.has(subject)) view.visibleData -= 1;
      for (const graph of visibleNow) {
        if (!view.graphs.has(graph)) {
          view.graphs.add(graph);
          if (data.has(graph)) view.visibleData += 1;
        }
      }
    } finally {
      // The probe lives in the WebAssembly memory: freed now, not when the collector gets to it.
      (probe as unknown as { free?: () => void }).free?.();
    }
    view.seq = this.seq;
    view.nodes = undefined;
    return true;
  }
}

/** The IRIs of a one-column SELECT's answer, read from its TSV text (`<iri>` a line after the header). */
function iriColumn(store: oxigraph.Store, query: string): string[] {
  const lines = (store.query(query, { results_format: 'text/tab-separated-values' }) as string).split('\n');
  const iris: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('<') && line.endsWith('>')) iris.push(line.slice(1, -1));
  }
  return iris;
}
