import { expect } from 'chai';
import { Client } from 'undici';
import { TestNode, type HttpAnswer, type UserName } from '../helpers/test-node.js';
import type { Logger } from '../../src/core/logger.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { READ_BOUND_MS } from '../hostile/concurrent-read.js';

const SPARQL = '/supply-chain/data-space/sparql';
const BURST = 200;
/** What a bind join sends, once per binding of the left side: one consignment's event codes. */
const boundJoin = (globalId: string) => `PREFIX unece: <https://vocabulary.uncefact.org/>
PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
SELECT ?code WHERE { ?c unece:globalId ?id ; svc:event ?e . ?e unece:typeCode ?code FILTER(STR(?id) = "${globalId}") }`;
const ORDINARY = 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g LIMIT 20';

/**
 * Another organisation's query on a connection of its own: sent through the shared fetch pool, it
 * would wait in this process behind the burst's 200 requests before reaching the node at all.
 */
async function queryOn(client: Client, token: string, text: string): Promise<{ status: number; body: any; ms: number; at: number }> {
  const started = performance.now();
  const res = await client.request({
    method: 'POST',
    path: SPARQL,
    body: text,
    headers: { authorization: `Bearer ${token}`, accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
  });
  const body = await res.body.json();
  const at = performance.now();
  return { status: res.statusCode, body, ms: at - started, at };
}

async function query(node: TestNode, user: UserName, text: string): Promise<HttpAnswer & { ms: number }> {
  const token = await node.login(user);
  const started = performance.now();
  const res = await node.request('POST', SPARQL, {
    token,
    rawBody: text,
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
  });
  return Object.assign(res, { ms: performance.now() - started });
}

/**
 * A federated join (Comunica over dataspace-query) sends one small query per binding, all at once:
 * the endpoint queues such a burst from one organisation and answers every query, while another
 * organisation's query still goes ahead of the backlog (issue 36). What one organisation may queue is
 * still bounded, by the time its queue would take (test/hostile/sparql*.test.ts: the count bound).
 */
// On a SPARQL server the server queues and answers queries itself: there is no engine scheduler or
// thread of the node's to test (and 200 queries at once left Virtuoso too slow for the next test file).
const embeddedOnly = externalSparqlUrl() ? describe.skip : describe; // reason: both bursts test the embedded engine threads

embeddedOnly('SPARQL endpoint: a burst of small queries from one organisation', function () {
  this.timeout(120_000);
  let node: TestNode;
  let globalId: string;

  before(async () => {
    node = await TestNode.start();
    const c = consignment();
    globalId = c.globalId;
    expect((await node.publish('forwarder', activity('Create', 'did:web:forwarder.example', c))).status).to.equal(201);
    expect(
      (await node.publish('forwarder', activity('Add', 'did:web:forwarder.example', event('svc:despatched'), target(c)))).status,
    ).to.equal(201);
    // Start the engine and parse threads, so the burst does not pay for them.
    expect((await query(node, 'border', 'ASK { ?s ?p ?o }')).status).to.equal(200);
  });
  after(async () => {
    await node?.stop();
  });

  it(`answers all ${BURST} queries 200 with their rows, and another organisation's query ahead of the backlog`, async () => {
    const bystander = new Client(node.url);
    // Its connection open before the burst, as a client already talking to the node.
    expect((await queryOn(bystander, await node.login('border'), 'ASK { ?s ?p ?o }')).status).to.equal(200);
    const started = performance.now();
    const burst = Array.from({ length: BURST }, () =>
      query(node, 'forwarder', boundJoin(globalId)).then((r) => Object.assign(r, { at: performance.now() })),
    );
    let burstDone = false;
    const answers = Promise.all(burst).finally(() => {
      burstDone = true;
    });
    await new Promise((ok) => setTimeout(ok, 20));
    const others: Awaited<ReturnType<typeof queryOn>>[] = [];
    do others.push(await queryOn(bystander, await node.login('border'), ORDINARY));
    while (!burstDone && others.length < 10);
    const results = await answers;
    await bystander.close();
    const burstMs = performance.now() - started;
    const otherMs = others.map((o) => o.ms);
    const ahead = results.filter((r) => r.at > others[0]!.at).length;
    console.log(
      `      ${BURST} queries at once: ${burstMs.toFixed(0)} ms; another organisation's first answered ahead of ${ahead} of them; its ${others.length} meanwhile: ${otherMs.map((m) => m.toFixed(0)).join(', ')} ms`,
    );
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => `${r.status} ${r.text.slice(0, 160)}`)).to.deep.equal([]);
    for (const r of results)
      expect(r.body.results.bindings.map((b: { code: { value: string } }) => b.code.value)).to.deep.equal(['svc:despatched']);
    expect(others.map((o) => o.status)).to.deep.equal(Array(others.length).fill(200));
    // First in, first out would answer it after the whole burst; round-robin after the query running
    // and at most one more of the burst's; on two shared cores the node's own intake of the burst's
    // 200 connections is most of its time, so it is the order that is asserted, not milliseconds.
    expect(ahead, `ahead of ${ahead} of ${BURST}`).to.be.at.least(BURST / 2);
    expect(Math.max(...otherMs), otherMs.join(', ')).to.be.below(READ_BOUND_MS);
  });
});

// Engine threads are the embedded store's; a node on an external store queries it in the request's
// turn, so there are no threads to release or restart.
embeddedOnly('SPARQL endpoint: a burst on a node whose engine threads were released while idle', function () {
  this.timeout(120_000);
  let node: TestNode;
  const logged: string[] = [];
  const logger: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) };

  before(async () => {
    node = await TestNode.start({ DATASPACE_SPARQL_IDLE_MS: '300' }, undefined, logger);
    expect((await node.publish('forwarder', activity('Create', 'did:web:forwarder.example', consignment()))).status).to.equal(201);
    expect((await query(node, 'forwarder', 'ASK { ?s ?p ?o }')).status).to.equal(200);
  });
  after(async () => {
    await node?.stop();
  });

  it(`queues all ${BURST} while the threads start again, and answers them 200`, async () => {
    const released = () => logged.filter((m) => m === 'SPARQL engine threads released while idle').length;
    const deadline = Date.now() + 10_000;
    while (released() === 0 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
    expect(released(), 'threads released').to.equal(1);
    const results = await Promise.all(Array.from({ length: BURST }, () => query(node, 'forwarder', ORDINARY)));
    expect(results.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text.slice(0, 160)}`)).to.deep.equal([]);
    expect(new Set(results.map((r) => r.text)).size, 'one answer for all').to.equal(1);
  });
});
