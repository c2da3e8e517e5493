import type { Quad } from '@rdfjs/types';
import type { Bindings, Change, Committed, QueryDataset, QuadStore, QueryStore } from '../ports/quad-store.js';
import { stagesGraphs, type GraphStaging, type StagesGraphs } from '../ports/graph-staging.js';

/** A store that passes everything to another; decorators override only what they change. */
export class DelegatingStore implements QuadStore, StagesGraphs {
  constructor(protected readonly inner: QuadStore) {}

  get rowCap(): number | undefined {
    return this.inner.rowCap;
  }

  get activityLog(): QueryStore {
    return this.inner.activityLog === this.inner ? this : this.inner.activityLog;
  }

  select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    return this.inner.select(query, dataset);
  }

  ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    return this.inner.ask(query, dataset);
  }

  construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    return this.inner.construct(query, dataset);
  }

  queryRaw(query: string, dataset: QueryDataset | undefined, format: string): Promise<string> {
    return this.inner.queryRaw(query, dataset, format);
  }

  commit(change: Change): Promise<Committed> {
    return this.inner.commit(change);
  }

  /** The inner store's staging, when it stages graphs ahead of their commit (a decorator's commit still sees the change). */
  stage(graph: string, nquads: string): GraphStaging | undefined {
    return stagesGraphs(this.inner) ? this.inner.stage(graph, nquads) : undefined;
  }

  size(): Promise<number> {
    return this.inner.size();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
