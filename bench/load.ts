import autocannon from 'autocannon';

/** What one load run measured. Latencies in milliseconds, with sub-millisecond precision. */
export interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** 2xx answers whose body reported a failed task (the inbox reports processing failures in the body). */
  taskErrors: number;
  /** Connection errors and timeouts. */
  errors: number;
  count: number;
  /** Server CPU time per answer in ms (all its threads), when the server's process was given. */
  cpuMsPerRequest?: number;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  /** A fixed number of requests instead of `seconds` of them: the same work whatever the machine's speed. */
  amount?: number;
  method: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** Called once per request: the path (and body) to send. */
  next: () => { path: string; body?: string };
  /** Look for a failed task in 2xx bodies (inbox answers). */
  checkTaskErrors?: boolean;
}

export function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/**
 * One closed-loop run: `connections` keep-alive connections, each sending its next request as soon
 * as the previous answer arrived. Latencies are taken from autocannon's per-response timings (its own
 * histogram rounds to whole milliseconds, too coarse for sub-millisecond reads).
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  let taskErrors = 0;
  const started = performance.now();
  let finished = started;
  let resolveResult: (result: autocannon.Result) => void = () => undefined;
  let rejectResult: (error: Error) => void = () => undefined;
  const done = new Promise<autocannon.Result>((ok, fail) => {
    resolveResult = ok;
    rejectResult = fail;
  });
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      pipelining: 1,
      ...(spec.amount === undefined ? { duration: spec.seconds } : { amount: spec.amount }),
      timeout: 30,
      requests: [
        {
          method: spec.method,
          headers: spec.headers,
          setupRequest: (request) => {
            const { path, body } = spec.next();
            return body === undefined ? { ...request, path } : { ...request, path, body };
          },
          ...(spec.checkTaskErrors
            ? {
                onResponse: (status: number, body: string) => {
                  if (status >= 200 && status < 300 && body.includes('"error"')) taskErrors++;
                },
              }
            : {}),
        },
      ],
    },
    (error, result) => (error ? rejectResult(error as Error) : resolveResult(result)),
  );
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else non2xx++;
    finished = performance.now();
  });
  const result = await done;
  const sorted = Float64Array.from(latencies).sort();
  const seconds = (finished - started) / 1000;
  return {
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx,
    taskErrors,
    errors: result.errors + result.timeouts,
    count: latencies.length,
  };
}

/** The run at `connections` measured earlier in the same bench, to compare another with. */
export function resultAt(results: Record<number, LoadResult>, connections: number): LoadResult {
  const result = results[connections];
  if (!result) throw new Error(`no run at ${connections} connections to compare with`);
  return result;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid];
  if (upper === undefined) return NaN;
  return sorted.length % 2 === 1 ? upper : (sorted[mid - 1]! + upper) / 2;
}

/** The median of each figure over runs; error counts are summed, since any one matters. */
export function medianOf(results: LoadResult[]): LoadResult {
  return {
    perSecond: median(results.map((r) => r.perSecond)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    taskErrors: results.reduce((s, r) => s + r.taskErrors, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    count: results.reduce((s, r) => s + r.count, 0),
    cpuMsPerRequest: median(results.map((r) => r.cpuMsPerRequest ?? NaN)),
  };
}
