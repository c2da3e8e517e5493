import { readFileSync } from 'node:fs';
import { BENCH_USERS } from './users.js';

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** How often the node's log (info level) says `pattern`. */
export const logCount = (logFile: string, pattern: RegExp): number => (readFileSync(logFile, 'utf8').match(pattern) ?? []).length;

/**
 * Starts a node's SPARQL engine threads the way a user does, with a first query (as the bench
 * forwarder), and waits until `threads` of them say ready in the node's log. Answers the query's status
 * and the start of its body, for the bench's log.
 */
export async function startEngineThreads(url: string, logFile: string, threads: number): Promise<string> {
  const { email, password } = BENCH_USERS.forwarder;
  const login = await fetch(`${url}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = /access_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  const res = await fetch(`${url}/supply-chain/data-space/sparql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
    body: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }',
  });
  const answer = `${res.status} ${(await res.text()).slice(0, 120)}`;
  for (let waited = 0; logCount(logFile, /SPARQL engine thread ready/g) < threads && waited < 600_000; waited += 500) await sleep(500);
  return answer;
}
