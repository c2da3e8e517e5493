import { Agent, request } from 'undici';

/** A SPARQL server's answer, read whole. */
export interface SparqlAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
  /** WWW-Authenticate of a 401: the challenge to answer. */
  authenticate?: string;
}

/** How the SPARQL store reaches its server: one form-encoded POST at a time per call. Tests pass their own. */
export interface SparqlHttp {
  post(url: string, headers: Record<string, string>, body: string): Promise<SparqlAnswer>;
  close(): Promise<void>;
}

/**
 * undici's `request` on the store's own kept-alive connections, rather than the global `fetch`: a
 * first view sends four requests, and fetch's WHATWG streams, Request/Response objects and per-request
 * `AbortSignal.timeout` took most of the node's CPU a view (docs/external-store.md).
 * `timeoutMs` bounds the wait for the answer's head (the server planning and running the query) and
 * each pause while its body arrives, so a server that stops answering fails the request as before.
 */
export function undiciHttp(timeoutMs: number, connections: number): SparqlHttp {
  const agent = new Agent({ connections, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  return {
    async post(url, headers, body) {
      const res = await request(url, { dispatcher: agent, method: 'POST', headers, body });
      const first = (name: string) => {
        const value = res.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const answer: SparqlAnswer = { status: res.statusCode, contentType: first('content-type'), body: await res.body.text() };
      if (res.statusCode === 401) answer.authenticate = first('www-authenticate');
      return answer;
    },
    close: () => agent.close(),
  };
}
