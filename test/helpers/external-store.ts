/**
 * Runs the HTTP suite against an external SPARQL store: set DATASPACE_TEST_SPARQL_URL (query and
 * update on one URL, as Virtuoso serves them) and every TestNode with a fresh data dir uses that
 * server, after removing what earlier nodes wrote there (the graphs under urn:, never the server's own).
 */
export const externalSparqlUrl = (): string | undefined => process.env.DATASPACE_TEST_SPARQL_URL || undefined;

export function externalStoreEnv(): Record<string, string> {
  const url = externalSparqlUrl();
  return url ? { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: url, DATASPACE_SPARQL_UPDATE_URL: url } : {};
}

const CLEAR = 'DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { GRAPH ?g { ?s ?p ?o } FILTER (STRSTARTS(STR(?g), "urn:")) }';

export async function clearExternalStore(): Promise<void> {
  const url = externalSparqlUrl();
  if (!url) return;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ update: CLEAR }),
  });
  if (!res.ok) throw new Error(`clearing the external store: ${res.status} ${await res.text()}`);
}
