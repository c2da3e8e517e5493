import type { Quad } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { ServiceUnavailable } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { QueryBank } from '../../core/queries/query-bank.js';
import type { Bindings, Change, Committed, QueryDataset, QuadStore, QueryStore } from '../../core/ports/quad-store.js';
import { undiciHttp, type SparqlAnswer, type SparqlHttp } from './sparql-http.js';
import { UpdateRender, type Prepared } from './update-render.js';
import type { ServerProfile } from './server-profile.js';
import type { SparqlStoreConfig } from './sparql-store-config.js';
import { VIRTUOSO } from './virtuoso.js';
import { ServerAuth } from './server-auth.js';

import {
  booleanResult,
  NO_GRAPH,
  SparqlStoreError,
  toTerm,
  unskolemised,
  inNodeForms,
  inNodeTerm,
  withDataset,
  type JsonResults,
} from './sparql-server-text.js';

/** A change waiting to be sent, and who waits for the server's answer. */

interface QueuedUpdate {
  prepared: Prepared;
  /** Its size in N-Quads and terms, to bound a request. */
  chars: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The store on any SPARQL 1.1 Query/Update server, over plain protocol requests (POST, form-encoded).
 * Changes are group-committed: every change committed while one Update request is on its way is sent
 * in the next request, its operations in commit order (a request is applied atomically, so no change
 * is ever half applied), and a change is durable only once the server answered the request carrying
 * it. Every read waits for the changes committed before it, so a query sees what was committed before
 * it was asked, as on the embedded store. Plain protocol rather than
 * @comunica/query-sparql: Comunica would plan queries on the client and cannot make one Change one
 * atomic request, while every server meant here runs the node's queries whole.
 */
export class SparqlStore implements QuadStore {
  private readonly auth: ServerAuth | undefined;
  private readonly templates = new QueryBank();
  private readonly render: UpdateRender;
  private queue: QueuedUpdate[] = [];
  private flushing: Promise<void> | undefined;
  /** Settles once every change committed so far has been answered (either way). */
  private written: Promise<void> = Promise.resolve();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly http: SparqlHttp;
  /** What this server answers and takes at once, and its own term forms. */
  private readonly profile: ServerProfile;

  /** Rows the server answers at most: paged reads ask for no more at once. */
  get rowCap(): number {
    return this.profile.rowCap;
  }

  /** One server holds every graph: the node's queries read the activity log with the rest. */
  get activityLog(): QueryStore {
    return this;
  }
  /** Changes per Update request, for the bench and tests. */
  readonly stats = { changes: 0, requests: 0, maxBatch: 0 };

  constructor(
    private readonly config: SparqlStoreConfig,
    /** The HTTP client; by default the store's own kept-alive connections, at most the profile's maxRequests. */
    http?: SparqlHttp,
    /** With a debug level: every request's text and how long the server took (DATASPACE_LOG=debug). */
    private readonly logger?: Logger,
  ) {
    this.profile = config.profile ?? VIRTUOSO;
    this.render = new UpdateRender(config.fence?.epoch, this.profile.fenceGuard);
    this.http = http ?? undiciHttp(config.timeoutMs, this.profile.maxRequests);
    this.auth = config.user === undefined ? undefined : new ServerAuth(config.user, config.password ?? '');
  }

  /** Fails at start with a clear message when the server cannot be reached or refuses us. */
  async check(): Promise<void> {
    await this.ask(this.templates.text('store/ping'));
  }

  /** The answer's body and type, read whole before the request's slot is given up. */
  private async post(url: string, form: URLSearchParams, accept: string): Promise<SparqlAnswer> {
    if (this.active >= this.profile.maxRequests) await new Promise<void>((ok) => this.waiting.push(ok));
    else this.active++;
    try {
      return await this.send(url, form, accept);
    } finally {
      // Handed straight to the next waiter, so the count stays right.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  private async send(url: string, form: URLSearchParams, accept: string): Promise<SparqlAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept };
    let res: SparqlAnswer;
    const started = performance.now();
    try {
      // At most two more requests: one asking for a Digest challenge, one answering it (server-auth.ts).
      for (let tries = 0; ; tries++) {
        const authorization = this.auth?.header(url);
        if (authorization === undefined) delete headers.authorization;
        else headers.authorization = authorization;
        res = await this.http.post(url, headers, form.toString());
        if (res.status !== 401 || !this.auth || tries > 1 || !this.auth.refused(res.authenticate, authorization)) break;
      }
    } catch (error) {
      throw new SparqlStoreError(`The SPARQL server at ${url} did not answer: ${(error as Error).message}`, true);
    } finally {
      // Time to the whole answer: what the server spent planning, running and writing it.
      this.logger?.debug?.('sparql request', {
        ms: Math.round((performance.now() - started) * 100) / 100,
        kind: form.has('update') ? 'update' : 'query',
        text: form.get('update') ?? form.get('query'),
      });
    }
    if (res.status < 200 || res.status > 299) {
      throw new SparqlStoreError(`The SPARQL server at ${url} answered ${res.status}: ${res.body.slice(0, 500)}`);
    }
    return res;
  }

  /** `text`: the query already rewritten for `dataset` by withDataset, where the caller has it. */
  private queryForm(query: string, dataset?: QueryDataset, text?: string): URLSearchParams {
    const form = new URLSearchParams({ query: dataset ? (text ?? withDataset(query, dataset).text) : query });
    if (dataset) {
      for (const g of dataset.defaultGraphs.length > 0 ? dataset.defaultGraphs : [NO_GRAPH]) form.append('default-graph-uri', g);
      for (const g of dataset.namedGraphs.length > 0 ? dataset.namedGraphs : [NO_GRAPH]) form.append('named-graph-uri', g);
    }
    return form;
  }

  private async results(query: string, dataset?: QueryDataset): Promise<JsonResults> {
    await this.written;
    const res = await this.post(this.config.queryUrl, this.queryForm(query, dataset), 'application/sparql-results+json');
    return JSON.parse(res.body) as JsonResults;
  }

  async select(query: string, dataset?: QueryDataset): Promise<Bindings[]> {
    const json = await this.results(query, dataset);
    return (json.results?.bindings ?? []).map((row) => new Map(Object.entries(row).map(([name, t]) => [name, toTerm(t, this.profile)])));
  }

  async ask(query: string, dataset?: QueryDataset): Promise<boolean> {
    const json = await this.results(query, dataset);
    if (json.results) return json.results.bindings.length > 0; // asked as SELECT … LIMIT 1
    if (typeof json.boolean !== 'boolean') throw new SparqlStoreError('The SPARQL server answered an ASK without a boolean');
    return json.boolean;
  }

  async construct(query: string, dataset?: QueryDataset): Promise<Quad[]> {
    await this.written;
    const res = await this.post(
      this.config.queryUrl,
      this.queryForm(query, dataset),
      'application/n-triples, text/plain;q=0.9, text/turtle;q=0.8',
    );
    // N-Triples is Turtle too, so one parser reads whichever the server picked.
    return new Parser({ format: 'Turtle' })
      .parse(res.body)
      .map((q) =>
        DataFactory.quad(unskolemised(q.subject) as Quad['subject'], q.predicate, inNodeTerm(q.object) as Quad['object'], q.graph),
      );
  }

  async queryRaw(query: string, dataset: QueryDataset | undefined, format: string): Promise<string> {
    // Parsed and written again once (sparqljs, not cheap: bench/results/2026-12-08-comment-figures.md):
    // a view on this store sends several.
    const rewritten = dataset && withDataset(query, dataset);
    if (rewritten?.asked) return booleanResult(await this.ask(query, dataset), format);
    await this.written;
    const res = await this.post(this.config.queryUrl, this.queryForm(query, dataset, rewritten?.text), format);
    return inNodeForms(res.body, res.contentType ?? format);
  }

  /**
   * The Update text of changes applied in order: their operations separated by `;`, except that a run
   * of consecutive inserts (several Creates in a row, or an Update's inserts and the next Create's)
   * becomes one INSERT DATA. Inserts commute with each other, so the result is the same, and Virtuoso
   * spends much less CPU a change on one INSERT DATA of many changes than on one each (figures:
   * bench/results/2026-12-08-comment-figures.md).
   */
  updateText(...changes: Change[]): string {
    return this.render.joined(changes.map((c) => this.render.prepared(c)));
  }

  async commit(change: Change): Promise<Committed> {
    if (change.ops.length === 0) return { durable: this.written };
    // Rendered now, so a change the server could never take fails its own commit, not a whole batch.
    const prepared = this.render.prepared(change);
    const chars = change.ops.reduce((n, op) => n + (op.op === 'insert' || op.op === 'replaceGraph' ? op.nquads.length : 200), 0);
    const durable = new Promise<void>((resolve, reject) => this.queue.push({ prepared, chars, resolve, reject }));
    this.written = durable.catch(() => undefined);
    this.scheduleFlush();
    return { durable };
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    // Changes committed while a request is out wait for it and go together in the next one.
    this.flushing = (async () => {
      while (this.queue.length > 0) await this.flushBatch();
      this.flushing = undefined;
    })();
  }

  private async flushBatch(): Promise<void> {
    let chars = 0;
    let n = 0;
    // n stays below the queue's length, so each item read is there.
    while (n < this.queue.length && n < this.profile.batchChanges && (n === 0 || chars + this.queue[n]!.chars <= this.profile.batchChars))
      chars += this.queue[n++]!.chars;
    const batch = this.queue.splice(0, n);
    try {
      const update = this.render.joined(batch.map((u) => u.prepared));
      if (update.length > 0) {
        this.checkFence();
        await this.post(this.config.updateUrl, new URLSearchParams({ update }), 'application/json, text/plain;q=0.5, */*;q=0.1');
        // Applied under the writer's epoch only if its lease still held when the answer came.
        this.checkFence();
      }
    } catch (caught) {
      // The changes queued behind were decided on a state that includes this batch: none of them may
      // land without it, so they fail with it (their activities answer 500, as on a failed fsync).
      const error = fencedOut(caught);
      const failed = [...batch, ...this.queue.splice(0)];
      this.logger?.error('a SPARQL Update failed: its changes and those queued behind it are not stored', {
        changes: failed.length,
        error: (error as Error).message,
      });
      for (const u of failed) u.reject(error as Error);
      return;
    }
    // The server answered after applying the whole request; how it survives a crash is its own log's job.
    this.stats.changes += batch.length;
    this.stats.requests += 1;
    this.stats.maxBatch = Math.max(this.stats.maxBatch, batch.length);
    for (const u of batch) u.resolve();
  }

  /** A replica set's writer that may have lost its lease acknowledges nothing (docs/replicas.md). */
  private checkFence(): void {
    if (this.config.fence && !this.config.fence.held())
      throw new ServiceUnavailable('This replica cannot confirm it still holds the writer lease: the write is not acknowledged; retry', 1);
  }

  /** One Update request of the node's own (a replica set's lease and identity), sent at once, unfenced. */
  async updateNow(update: string): Promise<void> {
    await this.post(this.config.updateUrl, new URLSearchParams({ update }), 'application/json, text/plain;q=0.5, */*;q=0.1');
  }

  async size(): Promise<number> {
    const [row] = await this.select(this.templates.text('store/count-quads'));
    return Number(row?.get('n')?.value ?? 0);
  }

  async close(): Promise<void> {
    // Changes already committed are sent before the process lets go.
    while (this.flushing) await this.flushing;
    await this.http.close();
  }
}

/**
 * A request the fence's guard refused (sparql/store/fence-guard.rq signals DSF01): the store holds a
 * newer writer's epoch, so this replica is deposed and applied nothing; answered 503 with Retry-After,
 * as a write whose lease it cannot confirm is, so the client's retry reaches the new writer.
 */
function fencedOut(error: unknown): unknown {
  if (!(error instanceof Error) || !/\bDSF01\b/.test(error.message)) return error;
  return new ServiceUnavailable('DSF01 fenced: another replica now holds the writer lease; the write is not stored; retry', 1);
}
