import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/core/logger.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { nth } from '../helpers/present.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** Every line the node logs, parsed, as it is written. */
class LogCapture extends Writable {
  readonly lines: Record<string, any>[] = [];
  raw = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    const text = chunk.toString();
    this.raw += text;
    for (const line of text.split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
  requests(): Record<string, any>[] {
    return this.lines.filter((l) => l.msg === 'request');
  }
}

/** The value of one sample of the exposition, by metric name and labels; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('operations: probes, metrics, access and audit log, request ids', () => {
  let node: TestNode;
  const log = new LogCapture();
  // Logs settle after the answer is sent: give the finish handlers a tick.
  const settled = () => new Promise((ok) => setTimeout(ok, 50));

  before(async () => {
    node = await TestNode.start({ DATASPACE_METRICS_TOKEN: METRICS_TOKEN }, undefined, createLogger('info', log));
  });
  after(() => node.stop());

  it('answers /healthz and /readyz without credentials, saying nothing else', async () => {
    const health = await node.request('GET', '/healthz');
    expect(health.status).to.equal(200);
    expect(health.text).to.equal('ok');
    const ready = await node.request('GET', '/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.text).to.equal('ready');
    expect(ready.headers.get('cache-control')).to.equal('no-store');
  });

  it("puts an X-Request-Id on every answer: the caller's when sane, a new one otherwise", async () => {
    const fresh = await node.request('GET', '/supply-chain/data-space/consignments');
    expect(fresh.status).to.equal(401);
    expect(fresh.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const kept = await node.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-42.abc' } });
    expect(kept.headers.get('x-request-id')).to.equal('trace-42.abc');
    for (const bad of ['has space', 'x'.repeat(129), '{"msg":"forged"}']) {
      const replaced = await node.request('GET', '/healthz', { headers: { 'x-request-id': bad } });
      expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    }
    const missing = await node.request('GET', '/no/such/route', { token: await node.login('forwarder') });
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('writes one access-log line per request: method, route pattern, status, ms, organisation, request id', async () => {
    const token = await node.login('forwarder');
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    const before = log.requests().length;
    const res = await node.request('GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`, {
      token,
      headers: { 'x-request-id': 'read-1' },
    });
    expect(res.status).to.equal(200);
    await settled();
    const lines = log.requests().slice(before);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include({
      reqId: 'read-1',
      method: 'GET',
      route: '/supply-chain/data-space/consignments/:id',
      status: 200,
      org: USERS.forwarder.org,
    });
    expect(nth(lines, 0).ms).to.be.a('number');
    // The route pattern, never the id itself.
    expect(JSON.stringify(lines[0])).not.to.contain(c.globalId);
    // Probes are counted in the metrics, not logged.
    expect((await node.request('GET', '/healthz')).status).to.equal(200);
    await settled();
    expect(log.requests().slice(before)).to.have.length(1);
  });

  it('writes audit lines for logins, policy changes and refused access, with no password, token or cookie', async () => {
    const wrong = await node.request('POST', '/authentication/login', {
      body: { email: USERS.border.email, password: 'not-the-password-123' },
    });
    expect(wrong.status).to.equal(401);
    const token = await node.login('border');
    const refused = await node.request('POST', '/supply-chain/data-space/policies', {
      token,
      body: { role: 'borderAgency', countries: ['GB'] },
    });
    expect(refused.status).to.equal(403);
    const created = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['FR'] });
    expect(created.status).to.equal(201);
    expect(
      (await node.as('forwarder', 'DELETE', `/supply-chain/data-space/policies/${encodeURIComponent(created.body.id)}`)).status,
    ).to.equal(204);
    await node.request('GET', '/supply-chain/data-space/consignments', { headers: { cookie: 'access_token=forged.cookie.value' } });
    await settled();

    const audits = log.lines.filter((l) => l.audit !== undefined);
    expect(audits.find((l) => l.audit === 'login' && l.outcome === 'failure' && l.email === USERS.border.email)).to.include({
      status: 401,
    });
    expect(audits.find((l) => l.audit === 'login' && l.outcome === 'success' && l.email === USERS.border.email)).to.exist;
    expect(audits.find((l) => l.audit === 'refused' && l.status === 403)).to.include({
      org: USERS.border.org,
      route: '/supply-chain/data-space/policies',
      reason: 'Forbidden',
    });
    expect(audits.find((l) => l.audit === 'refused' && l.status === 401 && l.route === '/supply-chain/data-space/consignments')).to.exist;
    expect(audits.find((l) => l.audit === 'policy' && l.action === 'register')).to.include({ org: USERS.forwarder.org });
    expect(audits.find((l) => l.audit === 'policy' && l.action === 'withdraw')).to.include({ org: USERS.forwarder.org });
    // Nothing secret anywhere in the whole log.
    for (const secret of [
      'not-the-password-123',
      USERS.border.password,
      USERS.forwarder.password,
      token,
      await node.login('forwarder'),
      'forged.cookie.value',
    ]) {
      expect(log.raw).not.to.contain(secret);
    }
  });

  it('redacts credentials by field name whoever logs them', async () => {
    const capture = new LogCapture();
    const logger = createLogger('info', capture);
    logger.info('careless', {
      password: 'p4ss',
      token: 't0ken',
      headers: { authorization: 'Bearer abc', cookie: 'access_token=xyz' },
      nested: { secret: 's3cret' },
    });
    expect(capture.raw).not.to.match(/p4ss|t0ken|Bearer abc|access_token=xyz|s3cret/);
    expect(nth(capture.lines, 0).password).to.equal('[redacted]');
  });

  it('refuses /metrics without the metrics token, a user token included', async () => {
    expect((await node.request('GET', '/metrics')).status).to.equal(401);
    expect((await node.request('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).to.equal(401);
    const asUser = await node.request('GET', '/metrics', { token: await node.login('forwarder') });
    expect(asUser.status).to.equal(401);
    expect(asUser.body).to.include({ name: 'UnauthorizedError' });
  });

  it('serves Prometheus metrics that follow the requests made', async () => {
    const token = await node.login('forwarder');
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    expect(
      (await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: 'Updated for the metrics' })))
        .status,
    ).to.equal(201);
    const invalid = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ globalId: 'not-a-urn' })));
    expect(invalid.status).to.equal(422);
    const rules: string[] = (invalid.body.properties?.results ?? []).map((r: { sourceShape: string }) => r.sourceShape);
    const sparql = await node.request('POST', '/supply-chain/data-space/sparql', {
      token,
      rawBody: 'ASK { ?s ?p ?o }',
      headers: { 'content-type': 'application/sparql-query', accept: 'application/sparql-results+json' },
    });
    expect(sparql.status).to.equal(200);
    await settled();
    // The loop-delay histogram takes each second's longest delay at the end of that second.
    await new Promise((ok) => setTimeout(ok, 1100));

    const res = await node.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'process_cpu_user_seconds_total')).to.be.a('number');
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/supply-chain/data-space/consignments/:id',
        status: '200',
      }),
    ).to.be.at.least(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/supply-chain/data-space/inbox', status: '201' }),
    ).to.be.at.least(2);
    // No raw path with an id ever becomes a label.
    expect(text).not.to.contain(c.globalId);
    expect(sample(text, 'dataspace_inbox_activities_total', { type: 'Create', status: '201' })).to.be.at.least(2);
    expect(sample(text, 'dataspace_inbox_activities_total', { type: 'Create', status: '422' })).to.equal(1);
    expect(rules.length).to.be.greaterThan(0);
    expect(sample(text, 'dataspace_validation_failures_total', { rule: nth(rules, 0) })).to.be.at.least(1);
    expect(sample(text, 'dataspace_sparql_queries_total', { status: '200' })).to.equal(1);
    expect(sample(text, 'dataspace_sparql_timeouts_total')).to.equal(0);
    expect(sample(text, 'dataspace_store_quads')).to.be.greaterThan(100);
    expect(sample(text, 'dataspace_store_quota_quads')).to.be.a('number');
    // The quota is counted against the main instance: the activity log's quads, kept apart, are not in it.
    const used = sample(text, 'dataspace_store_quota_used_quads');
    expect(used).to.be.greaterThan(0);
    if (node.node.capabilities.capacity) expect(used).to.be.lessThan(sample(text, 'dataspace_store_quads')!);
    else expect(used).to.equal(sample(text, 'dataspace_store_quads'));
    expect(sample(text, 'dataspace_outbox_backlog')).to.be.a('number');
    expect(sample(text, 'dataspace_outbox_oldest_age_seconds')).to.be.a('number');
    // Recovery and snapshots are the embedded store's; on a SPARQL server the server owns them.
    if (!externalSparqlUrl()) {
      expect(sample(text, 'dataspace_recovery_duration_seconds')).to.be.a('number');
      // The Update replaced the consignment's graph: its old quads are removed but still held.
      expect(sample(text, 'dataspace_store_removed_quads')).to.be.greaterThan(0);
      // Each Oxigraph instance's WebAssembly memory, as the node itself measures it.
      const main = sample(text, 'dataspace_store_memory_bytes', { instance: 'main' })!;
      const log = sample(text, 'dataspace_store_memory_bytes', { instance: 'activity-log' })!;
      // The larger of the two is what the capacity guard watches.
      expect(Math.max(main, log)).to.equal(node.node.capabilities.capacity!.memory.usedBytes());
      expect(sample(text, 'dataspace_store_compactions_total')).to.equal(0);
      expect(main % 65536).to.equal(0);
      expect(log).to.be.greaterThan(0);
    } else {
      expect(text).not.to.contain('dataspace_store_memory_bytes{');
    }
    expect(text).to.contain('# TYPE dataspace_snapshot_duration_seconds histogram');
    // The event loop's delay: a histogram of each second's longest delay and the longest of the last minute.
    expect(text).to.contain('# TYPE dataspace_event_loop_delay_seconds histogram');
    expect(sample(text, 'dataspace_event_loop_delay_seconds_bucket', { le: '+Inf' })).to.be.at.least(1);
    expect(sample(text, 'dataspace_event_loop_delay_max_seconds')).to.be.within(0, 60);
    // A stall of the loop (the node runs in this process) shows in both within a second.
    const stalled = (t: string) =>
      sample(t, 'dataspace_event_loop_delay_seconds_bucket', { le: '+Inf' })! -
      sample(t, 'dataspace_event_loop_delay_seconds_bucket', { le: '0.25' })!;
    const until = performance.now() + 400;
    while (performance.now() < until) {
      /* holds the event loop */
    }
    // Read each second (when the histogram takes the second's maximum) until the stall shows, for 5 s at most.
    let after = text;
    for (let tries = 0; tries < 5; tries++) {
      await new Promise((ok) => setTimeout(ok, 1100));
      after = (await node.request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text;
      if (stalled(after) > stalled(text) && sample(after, 'dataspace_event_loop_delay_max_seconds')! >= 0.35) break;
    }
    expect(sample(after, 'dataspace_event_loop_delay_max_seconds')).to.be.at.least(0.35);
    expect(stalled(after)).to.be.greaterThan(stalled(text));
    expect(text).to.contain('# TYPE dataspace_deliveries_total counter');
  });

  it('turns /metrics off (404) when no token is configured', async () => {
    const plain = await TestNode.start();
    try {
      const res = await plain.request('GET', '/metrics');
      expect(res.status).to.equal(404);
      expect(res.body.message).to.contain('DATASPACE_METRICS_TOKEN');
    } finally {
      await plain.stop();
    }
  });
});
