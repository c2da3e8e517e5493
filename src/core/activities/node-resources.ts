import { iri, list, type QueryBank } from '../queries/query-bank.js';
import type { QueryStore } from '../ports/quad-store.js';

/** The most ids one query asks about: a VALUES block of 64 IRIs stays far below any server's text limit. */
const BATCH = 64;

interface Waiting {
  id: string;
  answer: (named: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * Whether IRIs already name one of the node's resources (ingest/node-resources.rq), asked for the Creates
 * that arrive together: while one query is out, the ids asked for meanwhile wait and go in the next, up to
 * 64 a query. One query a Create cost a SPARQL server a plan each, most of a Create's CPU on Virtuoso, and
 * capped the Creates it took (the figures: bench/results/2026-12-07-comment-figures.md).
 */
export class NodeResources {
  private waiting: Waiting[] = [];
  private asking = false;

  /** `stores`: where resources live (the store, and the activity log's where it is apart). */
  constructor(
    private readonly stores: readonly QueryStore[],
    private readonly queries: QueryBank,
  ) {}

  named(id: string): Promise<boolean> {
    return new Promise((answer, fail) => {
      this.waiting.push({ id, answer, fail });
      if (!this.asking) void this.ask();
    });
  }

  private async ask(): Promise<void> {
    this.asking = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, BATCH);
      try {
        const named = await this.namedAmong([...new Set(batch.map((w) => w.id))]);
        for (const w of batch) w.answer(named.has(w.id));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    this.asking = false;
  }

  private async namedAmong(ids: string[]): Promise<Set<string>> {
    const named = new Set<string>();
    let left = ids;
    for (const store of this.stores) {
      if (left.length === 0) break;
      const rows = await store.select(this.queries.bind('ingest/node-resources', { ids: list(left.map(iri)) }));
      for (const row of rows) {
        const id = row.get('id')?.value;
        if (id !== undefined) named.add(id);
      }
      left = left.filter((id) => !named.has(id));
    }
    return named;
  }
}
