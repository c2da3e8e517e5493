/** What a federated query has done so far, counted by the fetch it runs through and by the result stream. */
export interface QueryActivity {
  requests: number;
  answered: number;
  results: number;
}

export interface QueryProgress {
  readonly activity: QueryActivity;
  stop(): void;
}

/**
 * A line on standard error every `everyMs` once a query has run that long, saying how long it has
 * run and what it did: a federated join can take many seconds and many requests before its first
 * row. A terminal sees one line rewritten in place; a pipe or a log one line per tick. Standard
 * output keeps the answer alone.
 */
export function queryProgress(endpoints: number, everyMs = 2000, out: NodeJS.WriteStream = process.stderr): QueryProgress {
  const activity: QueryActivity = { requests: 0, answered: 0, results: 0 };
  const started = Date.now();
  let shown = false;
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    // Comunica takes seconds to load and plan before its first request: say so rather than show zeros.
    const line =
      activity.requests === 0
        ? `dataspace-query: ${seconds} s, preparing the query (loading Comunica)`
        : `dataspace-query: ${seconds} s, ${activity.answered}/${activity.requests} requests answered by ` +
          `${endpoints} endpoint${endpoints === 1 ? '' : 's'}, ${activity.results} results so far`;
    out.write(out.isTTY ? `\r${line}` : `${line}\n`);
    shown = true;
  }, everyMs);
  timer.unref();
  return {
    activity,
    stop: () => {
      clearInterval(timer);
      if (shown && out.isTTY) out.write('\n');
    },
  };
}
