import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { retryAfterMs, runQuery, tokenFetch } from '../../src/adapters/cli/query.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';

const SPARQL = '/supply-chain/data-space/sparql';
const PER_NODE = Number(process.env.FEDERATION_PER_NODE ?? 2);
const RUNS = Number(process.env.FEDERATION_RUNS ?? 20);
const JOIN = `PREFIX unece: <https://vocabulary.uncefact.org/>
PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
SELECT ?id ?code WHERE { ?c unece:globalId ?id ; svc:event ?e . ?e unece:typeCode ?code }`;

/**
 * Comunica joining across two nodes (dataspace-query): its bind joins send bursts of small queries
 * from one organisation. The endpoint queues them fairly and answers them all within the time limit;
 * the join must come back whole every time, twenty times in a row.
 */
describe('federation: Comunica joins two nodes, twenty times in a row', function () {
  this.timeout(120_000);
  let a: TestNode;
  let b: TestNode;

  before(async () => {
    [a, b] = await Promise.all([TestNode.start(), TestNode.start()]);
    for (const node of [a, b]) {
      for (let i = 0; i < PER_NODE; i++) {
        const c = consignment();
        expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
        for (const code of ['svc:despatched', 'svc:arrived']) {
          expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, event(code), target(c)))).body.status).to.equal(
            'completed',
          );
        }
      }
    }
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it(`answers every row of a two-node join ${RUNS} times`, async () => {
    const endpoints = [
      { url: `${a.url}${SPARQL}`, token: await a.login('forwarder') },
      { url: `${b.url}${SPARQL}`, token: await b.login('forwarder') },
    ];
    for (let run = 0; run < RUNS; run++) {
      const started = Date.now();
      const json = JSON.parse(await runQuery(JOIN, endpoints, 'application/sparql-results+json'));
      expect(json.results.bindings, `run ${run + 1}`).to.have.length(2 * PER_NODE * 2);
      if (process.env.FEDERATION_TIMES) console.log(`run ${run + 1}: ${Date.now() - started} ms`);
    }
  });
});

describe('dataspace-query: asks again after a 503 with Retry-After', () => {
  it('retries a refused request with its token and body, and gives up after a few', async () => {
    const seen: string[] = [];
    let refuse = 2;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push(`${req.headers.authorization} ${body}`);
        if (refuse-- > 0)
          res
            .writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' })
            .end('{"name":"ServiceUnavailable","message":"busy"}');
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
    try {
      const fetchWithToken = tokenFetch([{ url, token: 't0k' }]);
      const res = await fetchWithToken(url, { method: 'POST', body: 'query=ASK{}' });
      expect(res.status).to.equal(200);
      expect(seen).to.deep.equal(['Bearer t0k query=ASK{}', 'Bearer t0k query=ASK{}', 'Bearer t0k query=ASK{}']);
      refuse = 100;
      seen.length = 0;
      expect((await fetchWithToken(url, { method: 'POST', body: 'query=ASK{}' })).status).to.equal(503);
      expect(seen).to.have.length(5);
    } finally {
      server.close();
    }
  });

  it('reads Retry-After as seconds or a date, capped at five seconds', () => {
    const now = Date.parse('2026-11-27T12:00:00Z');
    expect(retryAfterMs('1', now)).to.equal(1000);
    expect(retryAfterMs('600', now)).to.equal(5000);
    expect(retryAfterMs('Fri, 27 Nov 2026 12:00:02 GMT', now)).to.equal(2000);
    expect(retryAfterMs(null, now)).to.equal(undefined);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
  });
});
