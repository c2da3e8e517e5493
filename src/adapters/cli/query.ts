#!/usr/bin/env node
/**
 * dataspace-query: one SPARQL query over the endpoints of several nodes at once (a data space is many
 * nodes), each with its own Bearer token, evaluated by Comunica as one federated query. Prints a
 * table for SELECT, or any results / RDF format with --format.
 */
import { readFile } from 'node:fs/promises';
import { runAsProgram } from './is-main.js';
import { parseArgs } from 'node:util';
import type { QueryEngine } from '@comunica/query-sparql';
import { queryProgress, type QueryActivity } from './query-progress.js';

const USAGE = `Usage: dataspace-query --endpoint URL [--token TOKEN] [--endpoint URL [--token TOKEN]]... [--format F] (QUERY | --file FILE.rq)

Runs one SPARQL query over the SPARQL endpoints of several data-space nodes at once.
Each --token belongs to the --endpoint before it (a node's access token, see POST /authentication/login).

  --format  table (default for SELECT), or a media type: application/sparql-results+json,
            application/sparql-results+xml, text/csv, text/tab-separated-values for SELECT/ASK;
            text/turtle (default for CONSTRUCT/DESCRIBE), application/n-triples, application/ld+json.
  --progress SECONDS  how often a running query prints a progress line on standard error (default 2;
            0: never). Standard output keeps the answer alone.`;

export interface Endpoint {
  url: string;
  token?: string;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Endpoints in the order given, each with the token that follows it. */
export function readEndpoints(args: readonly string[]): { endpoints: Endpoint[]; rest: string[] } {
  const endpoints: Endpoint[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--endpoint' || arg === '--token') {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      if (arg === '--endpoint') {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          throw new UsageError(`${value} is not a URL`);
        }
        endpoints.push({ url: url.href });
      } else {
        const last = endpoints.at(-1);
        if (!last || last.token !== undefined) throw new UsageError('Each --token follows the --endpoint it is for');
        last.token = value;
      }
    } else rest.push(arg);
  }
  if (endpoints.length === 0) throw new UsageError('Name at least one --endpoint');
  return { endpoints, rest };
}

/** A 503 with Retry-After is asked again this many times at most, waiting at most this long each time. */
const RETRIES = 4;
const MAX_RETRY_WAIT_MS = 5_000;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isNaN(ms) ? undefined : Math.min(MAX_RETRY_WAIT_MS, Math.max(0, ms));
}

/** Causes that no retry mends: no server at the address, or no such address. */
const NOTHING_THERE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** A request of the query got no answer at all from its endpoint (refused, no such host, a reset connection). */
export class EndpointUnreachable extends Error {
  override readonly name = 'EndpointUnreachable';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot reach ${url}: ${reason}${NOTHING_THERE.has(reason) ? ' (is a node listening there, and is the address right?)' : ''}`);
  }
}

/** The low-level reason fetch gives in its `cause` chain (ECONNREFUSED, ENOTFOUND, ...), else its message. */
function networkCause(error: unknown): string {
  let e: unknown = error;
  while (e !== null && typeof e === 'object') {
    const { code, cause, message } = e as { code?: unknown; cause?: unknown; message?: unknown };
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    if (cause === undefined) return typeof message === 'string' ? message : 'a network error';
    e = cause;
  }
  return typeof e === 'string' ? e : 'a network error';
}

export interface FetchWatch {
  activity?: QueryActivity;
  /** Called once an endpoint turns out unreachable, so the query can stop at once rather than wait on Comunica. */
  unreachable?: (error: EndpointUnreachable) => void;
}

/**
 * fetch that adds the token of the endpoint a request goes to, and no token anywhere else, and asks
 * again after a 503 that says when (Retry-After: the endpoint's queue was full), a few times: Comunica
 * does not, and one refused request of a federated join fails the whole query. A request that
 * reaches no server fails naming the endpoint and the cause.
 */
export function tokenFetch(endpoints: readonly Endpoint[], watch: FetchWatch = {}): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const endpoint = endpoints.find((e) => url === e.url || url.startsWith(`${e.url}?`));
    const headers = new Headers(init?.headers);
    if (endpoint?.token) headers.set('authorization', `Bearer ${endpoint.token}`);
    for (let attempt = 0; ; attempt++) {
      if (watch.activity) watch.activity.requests++;
      let res: Response;
      try {
        res = await fetch(input, { ...init, headers });
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        const unreachable = new EndpointUnreachable(endpoint?.url ?? url.split('?')[0]!, networkCause(error));
        // Only nothing listening or no such host ends the query; Comunica gets over a reset connection itself.
        if (NOTHING_THERE.has(unreachable.reason)) watch.unreachable?.(unreachable);
        throw unreachable;
      }
      if (watch.activity) watch.activity.answered++;
      const wait = res.status === 503 && attempt < RETRIES ? retryAfterMs(res.headers.get('retry-after')) : undefined;
      if (wait === undefined) return res;
      await res.body?.cancel();
      await new Promise((ok) => setTimeout(ok, wait));
    }
  };
}

function table(rows: Record<string, string>[], variables: string[]): string {
  const widths = variables.map((v) => Math.max(v.length + 1, ...rows.map((r) => (r[v] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  return [
    line(variables.map((v) => `?${v}`)),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...rows.map((r) => line(variables.map((v) => r[v] ?? ''))),
  ].join('\n');
}

/** Comunica is not installed: this command alone needs it. */
export class ComunicaMissing extends Error {
  override readonly name = 'ComunicaMissing';
}

/**
 * Comunica, loaded when the command runs: it is about 380 packages that only this command uses, so it
 * is a devDependency (a clone has it) and a production install leaves it out.
 */
async function comunica(): Promise<QueryEngine> {
  try {
    const { QueryEngine: Engine } = await import('@comunica/query-sparql');
    return new Engine();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND' || !(error as Error).message.includes("'@comunica/query-sparql'"))
      throw error;
    throw new ComunicaMissing(
      'Comunica is not installed (a production install leaves it out): npm install --no-save @comunica/query-sparql@^4.5.0',
    );
  }
}

/**
 * Runs the query over every endpoint as one dataset and returns the text to print. An endpoint that
 * cannot be reached ends the query at once with its address and cause: Comunica would go on trying
 * other ways to read the source for many seconds and then say only `fetch failed`.
 */
export async function runQuery(query: string, endpoints: readonly Endpoint[], format = 'table', activity?: QueryActivity): Promise<string> {
  let stop: (error: EndpointUnreachable) => void = () => undefined;
  const unreachable = new Promise<never>((_ok, fail) => (stop = fail));
  unreachable.catch(() => undefined);
  const fetcher = tokenFetch(endpoints, { activity, unreachable: (error) => stop(error) });
  return Promise.race([evaluate(query, endpoints, format, fetcher, activity), unreachable]);
}

async function evaluate(
  query: string,
  endpoints: readonly Endpoint[],
  format: string,
  fetcher: typeof fetch,
  activity?: QueryActivity,
): Promise<string> {
  const engine = await comunica();
  const context = { sources: endpoints.map((e) => ({ type: 'sparql', value: e.url })), fetch: fetcher } as never;
  const result = await engine.query(query, context);
  if (format === 'table') {
    if (result.resultType === 'boolean') return String(await result.execute());
    if (result.resultType === 'quads') return readText(await engine.resultToString(result, 'text/turtle', context));
    if (result.resultType !== 'bindings') throw new Error('SPARQL Update is not run: the endpoints are read-only');
    const bindings = [];
    for await (const binding of await result.execute()) {
      bindings.push(binding);
      if (activity) activity.results++;
    }
    // Comunica 4 types these as Variables; some releases wrap them as {variable, canBeUndef}.
    const variables = (await result.metadata()).variables.map(
      (v) => ((v as unknown as { variable?: { value: string } }).variable ?? v).value,
    );
    const rows = bindings.map((b) => Object.fromEntries(variables.map((v) => [v, b.get(v)?.value ?? ''])));
    return `${table(rows, variables)}\n(${rows.length} row${rows.length === 1 ? '' : 's'})`;
  }
  return readText(await engine.resultToString(result, format, context));
}

async function readText(out: { data: NodeJS.ReadableStream }): Promise<string> {
  let text = '';
  for await (const chunk of out.data) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return text.trimEnd();
}

export async function main(args: string[]): Promise<number> {
  let query: string;
  let endpoints: Endpoint[];
  let format: string | undefined;
  let progressSeconds = 2;
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  try {
    const read = readEndpoints(args);
    endpoints = read.endpoints;
    const { values, positionals } = parseArgs({
      args: read.rest,
      allowPositionals: true,
      options: { format: { type: 'string' }, file: { type: 'string' }, progress: { type: 'string' } },
    });
    format = values.format;
    if (values.progress !== undefined) {
      progressSeconds = Number(values.progress);
      if (!Number.isFinite(progressSeconds) || progressSeconds < 0) throw new UsageError('--progress takes seconds, 0 or more');
    }
    if (values.file !== undefined) query = await readFile(values.file, 'utf8');
    else if (positionals.length === 1) query = positionals[0]!;
    else throw new UsageError('Give the query as one argument or with --file');
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const progress = progressSeconds === 0 ? undefined : queryProgress(endpoints.length, progressSeconds * 1000);
  try {
    const text = await runQuery(query, endpoints, format, progress?.activity);
    progress?.stop();
    console.log(text);
    return 0;
  } catch (error) {
    progress?.stop();
    console.error(`dataspace-query: ${(error as Error).message}`);
    return 1;
  }
}

runAsProgram(import.meta.url, main);
