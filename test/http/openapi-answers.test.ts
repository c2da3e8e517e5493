import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';
import { OpenApiCheck } from '../helpers/openapi-check.js';
import { until } from '../helpers/until.js';
import { ERROR_NAMES } from '../../src/core/error-names.js';

const API = '/supply-chain/data-space';
const METRICS_TOKEN = 'metrics-token-0123456789';
const enc = encodeURIComponent;

interface Call {
  as?: UserName | { bearer: string } | { basic: string };
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * The OpenAPI document against the node's real answers (issue 36): every documented operation is
 * called over HTTP, each answer's status must be one the operation lists, its media type one listed
 * for that status, and its JSON body valid against the schema there (ajv, JSON Schema 2020-12). Every
 * error body's name must be one the error table lists for its status. Every operation must have
 * answered with a success at least once, so each documented operation exists
 * (test/http/openapi-and-pages.test.ts checks the other way: every route the app serves is documented).
 */
describe('OpenAPI document: real answers of every operation validate against it', function () {
  this.timeout(90_000);
  let node: TestNode;
  let receiver: SignalReceiver;
  let check: OpenApiCheck;
  const problems: string[] = [];
  const answered = new Map<string, Set<number>>();

  async function call(method: string, path: string, options: Call = {}) {
    const headers: Record<string, string> = { ...options.headers };
    const who = options.as;
    if (typeof who === 'string') headers.authorization = `Bearer ${await node.login(who)}`;
    else if (who && 'bearer' in who) headers.authorization = `Bearer ${who.bearer}`;
    else if (who && 'basic' in who) headers.authorization = `Basic ${Buffer.from(who.basic).toString('base64')}`;
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${node.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const op = check.find(method, path);
    if (!op) {
      problems.push(`${method} ${path}: no documented operation`);
    } else {
      for (const p of check.problems(op, { status: res.status, contentType: res.headers.get('content-type'), text }))
        problems.push(`${op.operationId} ${res.status} (${method} ${path}): ${p}`);
      const statuses = answered.get(op.operationId) ?? new Set<number>();
      answered.set(op.operationId, statuses.add(res.status));
    }
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    // An error's name is one the error table gives its status (the token endpoint answers in the OAuth form).
    if (
      res.status >= 400 &&
      op &&
      op.operationId !== 'clientCredentialsToken' &&
      json?.name !== undefined &&
      !ERROR_NAMES.some((e) => e.status === res.status && e.name === json.name)
    ) {
      problems.push(`${op.operationId} ${res.status} (${method} ${path}): the error name ${json.name} is not listed for ${res.status}`);
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  before(async () => {
    node = await TestNode.start({ DATASPACE_METRICS_TOKEN: METRICS_TOKEN });
    receiver = await SignalReceiver.start();
    check = new OpenApiCheck((await node.request('GET', '/openapi.json')).body);
  });
  after(async () => {
    await node?.stop();
    await receiver?.close();
  });

  it('answers as documented, with a success for every operation', async () => {
    // Reference and operations.
    for (const path of [
      '/openapi.json',
      '/docs',
      '/favicon.ico',
      '/contexts/unece-context-D23B.jsonld',
      '/contexts/no-such.jsonld',
      '/contexts/dataspace-changes.jsonld',
      '/healthz',
      '/readyz',
      '/',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ])
      await call('GET', path);
    await call('GET', '/', { headers: { accept: 'text/html' } });
    await call('GET', '/', { headers: { accept: 'image/png' } });
    await call('GET', '/metrics');
    await call('GET', '/metrics', { as: { bearer: METRICS_TOKEN } });

    // Logging in and out; the token's refresh.
    const login = await call('POST', '/authentication/login', { body: { email: USERS.border.email, password: USERS.border.password } });
    expect(login.status).to.equal(200);
    await call('POST', '/authentication/login', { body: { email: USERS.border.email, password: 'wrong-password' } });
    await call('POST', '/authentication/login', { body: { email: 'not an email' } });
    await call('GET', '/authentication/refresh', { as: 'border' });
    await call('POST', '/authentication/refresh', { as: 'border' });
    await call('GET', '/authentication/refresh');
    await call('GET', '/authentication/logout');
    await call('POST', '/authentication/logout');

    // Publishing, checking and reading back.
    const c = consignment();
    const created = await call('POST', `${API}/inbox`, { as: 'forwarder', body: activity('Create', USERS.forwarder.org, c) });
    expect(created.status, created.text).to.equal(201);
    await call('POST', `${API}/inbox`, { as: 'forwarder', body: activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)) });
    await call('POST', `${API}/inbox`, {
      as: 'forwarder',
      body: activity('Add', USERS.forwarder.org, document('INV-9', { uRIId: 'data:application/pdf;base64,JVBERi0xLjQK' }), target(c)),
    });
    await call('POST', `${API}/inbox`, {
      as: 'forwarder',
      rawBody: '{"not": "an activity"',
      headers: { 'content-type': 'application/json' },
    });
    await call('POST', `${API}/inbox`);
    await call('POST', `${API}/validate`, { as: 'forwarder', body: activity('Create', USERS.forwarder.org, consignment()) });
    await call('POST', `${API}/validate`, {
      as: 'forwarder',
      body: activity('Create', USERS.forwarder.org, consignment({ globalId: 42 })),
      headers: { accept: 'text/turtle' },
    });
    await call('GET', `${API}/activity-logs/${enc(created.json.id)}`, { as: 'forwarder' });
    await call('GET', `${API}/activity-logs/${enc('urn:uuid:00000000-0000-4000-8000-00000000dead')}`, { as: 'forwarder' });

    const item = `${API}/consignments/${enc(c.globalId)}`;
    await call('GET', `${API}/consignments`, { as: 'forwarder' });
    await call('GET', `${API}/consignments?limit=0`, { as: 'forwarder' });
    await call('GET', item, { as: 'forwarder' });
    for (const accept of ['text/turtle', 'application/ld+json', 'application/n-quads'])
      await call('GET', item, { as: 'forwarder', headers: { accept } });
    await call('GET', item, { as: 'border' });
    await call('GET', `${item}/documents`, { as: 'forwarder' });
    await call('GET', `${item}/documents/INV-9?meta`, { as: 'forwarder' });
    await call('GET', `${item}/documents/INV-9`, { as: 'forwarder' });
    await call('GET', `${item}/documents/NOPE?meta`, { as: 'forwarder' });
    await call('GET', `${API}/documents`, { as: 'forwarder' });
    await call('GET', `${API}/documents?consignmentId=${enc(c.globalId)}`, { as: 'forwarder' });
    await call('GET', `${item}/deliveries`, { as: 'forwarder' });
    await call('GET', `${API}/changes`, { as: 'forwarder' });
    await call('GET', `${API}/changes?limit=2`, { as: 'forwarder', headers: { accept: 'application/ld+json' } });
    await call('GET', `${API}/changes`, { as: 'forwarder', headers: { accept: 'text/csv' } });
    await call('GET', `${API}/changes?cursor=nonsense`, { as: 'forwarder' });

    // Signals: the border agency's endpoint receives a PreNotification, then asks for it again.
    await call('GET', `${API}/notification-endpoint`, { as: 'border' });
    await call('PUT', `${API}/notification-endpoint`, { as: 'border', body: { url: 'not a url' } });
    expect(
      (await call('PUT', `${API}/notification-endpoint`, { as: 'border', body: { url: receiver.url, secret: testSecret('openapi') } }))
        .status,
    ).to.equal(200);
    const signalled = consignment();
    await call('POST', `${API}/inbox`, { as: 'forwarder', body: activity('Create', USERS.forwarder.org, signalled) });
    await receiver.until((r) => r.some((s) => s.answered === 204));
    // On a replica set the writer records an outcome shortly after the receiver answered
    // (docs/replicas.md "Signals from every replica"): the list says delivered within about 250 ms.
    const signals = await until(
      'the signal listed as delivered',
      () => call('GET', `${API}/signals`, { as: 'border' }),
      (res) => res.json.some((s: { state: string }) => s.state === 'delivered'),
    );
    await call('GET', `${API}/signals?since=yesterday`, { as: 'border' });
    const delivered = signals.json.find((s: { state: string }) => s.state === 'delivered');
    expect(delivered, signals.text).to.not.equal(undefined);
    await call('POST', `${API}/signals/${enc(delivered.signal)}/redeliver`, { as: 'border' });
    await call('POST', `${API}/signals/${enc('urn:uuid:00000000-0000-4000-8000-00000000dead')}/redeliver`, { as: 'border' });

    // Policies.
    const policy = await call('POST', `${API}/policies`, { as: 'forwarder', body: { role: 'borderAgency', countries: ['FR'] } });
    expect(policy.status, policy.text).to.equal(201);
    await call('POST', `${API}/policies`, { as: 'forwarder', body: { role: 'astronaut' } });
    await call('POST', `${API}/policies`, { as: 'border', body: { role: 'borderAgency', countries: ['FR'] } });
    await call('GET', `${API}/policies`, { as: 'forwarder' });
    await call('GET', `${API}/policies`, { as: 'forwarder', headers: { accept: 'text/turtle' } });
    await call('GET', `${API}/policies/${enc(policy.json.id)}`, { as: 'forwarder' });
    await call('DELETE', `${API}/policies/${enc(policy.json.id)}`, { as: 'forwarder' });
    await call('GET', `${API}/policies/${enc(policy.json.id)}`, { as: 'forwarder' });

    // Organisation accounts: users and machine clients, by the forwarder's admin.
    const users = `${API}/organisation/users`;
    const newUser = { email: 'clerk@forwarder.example', password: 'clerk-password-1' };
    await call('GET', users, { as: 'forwarder' });
    await call('GET', users, { as: 'border' });
    expect((await call('POST', users, { as: 'forwarder', body: newUser })).status).to.equal(201);
    await call('POST', users, { as: 'forwarder', body: newUser });
    await call('GET', `${users}/${enc(newUser.email)}`, { as: 'forwarder' });
    await call('PATCH', `${users}/${enc(newUser.email)}`, { as: 'forwarder', body: { admin: true } });
    await call('PATCH', `${users}/${enc(newUser.email)}`, { as: 'forwarder', body: {} });
    await call('DELETE', `${users}/${enc(newUser.email)}`, { as: 'forwarder' });
    await call('GET', `${users}/${enc(newUser.email)}`, { as: 'forwarder' });

    const clients = `${API}/organisation/clients`;
    const registered = await call('POST', clients, { as: 'forwarder', body: { clientId: 'forwarder-robot' } });
    expect(registered.status, registered.text).to.equal(201);
    await call('GET', clients, { as: 'forwarder' });
    await call('GET', `${clients}/forwarder-robot`, { as: 'forwarder' });
    const rotated = await call('POST', `${clients}/forwarder-robot/secret`, { as: 'forwarder' });
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    await call('POST', '/authentication/token', {
      as: { basic: `forwarder-robot:${rotated.json.clientSecret}` },
      rawBody: 'grant_type=client_credentials',
      headers: form,
    });
    await call('POST', '/authentication/token', {
      as: { basic: 'forwarder-robot:wrong' },
      rawBody: 'grant_type=client_credentials',
      headers: form,
    });
    await call('POST', '/authentication/token', { rawBody: 'grant_type=password', headers: form });
    await call('DELETE', `${clients}/forwarder-robot`, { as: 'forwarder' });
    await call('GET', `${clients}/forwarder-robot`, { as: 'forwarder' });

    // The SPARQL endpoint, with each result format and error.
    const sparql = `${API}/sparql`;
    const select = 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 1';
    await call('GET', sparql, { headers: { accept: 'text/turtle' } });
    await call('GET', sparql, { as: 'forwarder', headers: { accept: 'text/html' } });
    for (const accept of ['application/sparql-results+json', 'application/sparql-results+xml', 'text/csv', 'text/tab-separated-values']) {
      await call('GET', `${sparql}?query=${enc(select)}`, { as: 'forwarder', headers: { accept } });
    }
    const query = { 'content-type': 'application/sparql-query' };
    await call('POST', sparql, {
      as: 'forwarder',
      rawBody: 'ASK { ?s ?p ?o }',
      headers: { ...query, accept: 'application/sparql-results+json' },
    });
    for (const accept of ['text/turtle', 'application/ld+json', 'application/n-triples', 'application/rdf+xml']) {
      await call('POST', sparql, { as: 'forwarder', rawBody: 'CONSTRUCT WHERE { ?s ?p ?o } LIMIT 2', headers: { ...query, accept } });
    }
    await call('POST', sparql, { as: 'forwarder', rawBody: 'SELEKT nothing', headers: query });
    await call('POST', sparql, {
      as: 'forwarder',
      rawBody: 'INSERT DATA { <a:b> <a:c> <a:d> }',
      headers: { 'content-type': 'application/sparql-update' },
    });
    await call('POST', sparql, { as: 'forwarder', rawBody: select, headers: { ...query, accept: 'image/png' } });
    await call('POST', sparql, { as: 'forwarder', rawBody: select, headers: { 'content-type': 'text/plain' } });
    await call('POST', sparql, { rawBody: select, headers: query });

    expect(problems, problems.join('\n')).to.deep.equal([]);
    const operations = check.operations.map((op) => op.operationId).sort();
    const succeeded = operations.filter((id) => [...(answered.get(id) ?? [])].some((s) => s >= 200 && s < 300));
    expect(
      operations.filter((id) => !succeeded.includes(id)),
      'documented operations that never answered a success',
    ).to.deep.equal([]);
    const errors = [...answered.values()].flatMap((statuses) => [...statuses]).filter((s) => s >= 400);
    expect(new Set(errors), 'error answers checked too').to.include.members([400, 401, 403, 404, 406, 409, 415]);
  });
});
