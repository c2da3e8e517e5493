import type { TestNode, UserName } from '../helpers/test-node.js';

/** What the identity cases share beside neighbours.ts: what each reader's SPARQL answers say about a resource. */

export const SPARQL = '/supply-chain/data-space/sparql';
export const SVC_EVENT = 'https://w3id.org/supply-chain-dataspace/ns#event';
export const UNECE = 'https://vocabulary.uncefact.org/';

/** One SELECT as `user`, answered as `status row…` with the rows sorted, so two answers compare by content. */
export async function sparqlRows(node: TestNode, user: UserName, query: string): Promise<string> {
  const token = await node.login(user);
  const res = await node.request('POST', SPARQL, {
    token,
    rawBody: query,
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
  });
  if (res.status !== 200) return `${res.status} ${res.text.slice(0, 200)}`;
  const body = JSON.parse(res.text) as { results: { bindings: Record<string, { type: string; value: string }>[] } };
  // A blank node's label is the answer's own (it may differ between two answers): compared as `_:`.
  const rows = body.results.bindings.map((b) =>
    Object.keys(b)
      .sort()
      .map((k) => `${k}=${b[k]!.type === 'bnode' ? '_:' : b[k]!.value}`)
      .join(' '),
  );
  return `200 ${rows.sort().join('\n')}`;
}

/**
 * Every statement each reader's SPARQL answers hold with `subject` as subject, and the graph it sits
 * in. The node's own links from a consignment to an event or document (svc:event, associatedDocument)
 * are left out: they are written by the node into each contribution's graph.
 */
export async function sparqlAbout(node: TestNode, subject: string, readers: UserName[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const reader of readers) {
    out[reader] = await sparqlRows(
      node,
      reader,
      `SELECT ?g ?p ?o WHERE { GRAPH ?g { <${subject}> ?p ?o } FILTER (?p NOT IN (<${SVC_EVENT}>, <${UNECE}associatedDocument>)) }`,
    );
  }
  return out;
}

/** The consignment a reader gets for a path id: its owner and globalId, or the status. */
export async function whoseIs(node: TestNode, user: UserName, id: string): Promise<string> {
  const res = await node.as(user, 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`);
  return res.status === 200 ? `${res.body.owner} ${res.body.globalId}` : String(res.status);
}

/**
 * The lines two sets of reads do not share (`- ` only before, `+ ` only after), JSON split at its
 * fields: empty when A's data reads the same, else short enough to show in a failure.
 */
export function changedLines(before: unknown, after: unknown): string[] {
  const text = (reads: unknown) => JSON.stringify(reads, null, 1).replace(/\\n/g, '\n');
  const lines = (reads: unknown) => text(reads).split(/\n|,(?=\\?")/);
  const was = new Set(lines(before));
  const now = new Set(lines(after));
  const changed = [
    ...[...was].filter((l) => !now.has(l)).map((l) => `- ${l}`),
    ...[...now].filter((l) => !was.has(l)).map((l) => `+ ${l}`),
  ];
  return changed.length === 0 && text(before) !== text(after) ? ['(the same lines, in another order or number)'] : changed;
}
