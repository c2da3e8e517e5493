import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { HaProxy, haproxyMissing } from '../helpers/haproxy.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, event, newGlobalId, target, type Json } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const INBOX = '/supply-chain/data-space/inbox';
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;
const missing = postgresMissing() ?? virtuosoMissing() ?? haproxyMissing();

/** What a replica answers, as a client sees it: status, body, and the replica set's headers. */
interface Answer {
  status: number;
  body: Json;
  position: string | null;
  role: string | null;
}

/**
 * Every replica of a set serves (docs/replicas.md): three replicas on one PostgreSQL and one Virtuoso,
 * the first holding the writer lease, the others following its commits; reads answered where they
 * land, writes taken by any replica (forwarded to the writer), retries answered once across them.
 */
describe('replicas: every replica serves, three behind HAProxy', function () {
  this.timeout(180_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let proxy: HaProxy;
  let databaseUrl: string;
  const replicas: NodeProcess[] = [];
  let token: string;

  const startReplica = (followMs = '60000'): Promise<NodeProcess> =>
    NodeProcess.start({
      ...virtuoso.env(),
      DATABASE_URL: databaseUrl,
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-serve-any-'), 'data'),
      DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
      DATASPACE_READER_THREADS: '1',
      DATASPACE_REPLICA_CHECK_MS: '200',
      // No takeover here: a lease of 2 s (trusted 1.6 s) rather than 600 ms, so a renewal late on a
      // loaded machine does not make the writer refuse a write it cannot confirm (503, seen at load 20).
      DATASPACE_REPLICA_LEASE_MS: '2000',
      DATASPACE_REPLICA_TAKEOVER_MS: '0',
      // The first two follow by notifications (and a read waiting for a position asks at once); the third also polls.
      DATASPACE_REPLICA_FOLLOW_MS: followMs,
      DATASPACE_REPLICA_READ_WAIT_MS: '3000',
    });

  const call = async (url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : {}) as Json,
      position: res.headers.get('dataspace-position'),
      role: res.headers.get('dataspace-replica'),
    };
  };

  before(async function () {
    if (missing) this.skip(); // reason: no PostgreSQL, Virtuoso or HAProxy here; .ci/run installs all three from Debian
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
    databaseUrl = await postgres.database('dataspace');
    // The first holds the lease before the others start, so which one writes is known.
    replicas.push(await startReplica());
    await replicas[0]!.untilRole('writer');
    replicas.push(...(await Promise.all([startReplica(), startReplica('300')])));
    await Promise.all(replicas.slice(1).map((r) => r.untilRole('follower')));
    proxy = await HaProxy.start(replicas.map((r) => r.port));
    await proxy.settled();
    token = await logIn(proxy.url, 'forwarder');
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGTERM')));
    await Promise.all([proxy?.stop(), virtuoso?.stop(), postgres?.stop()]);
  });

  it('has one writer and serves reads on the followers, /readyz 200 on each', async () => {
    expect(await Promise.all(replicas.map((r) => r.role()))).to.deep.equal(['writer', 'follower', 'follower']);
  });

  it('reads a consignment created through the writer on a follower at once with the position header', async () => {
    const [writer, follower] = [replicas[0]!, replicas[1]!];
    // Read first, so the follower has the consignment's absence in its caches.
    const c = consignment();
    expect((await call(follower.url, 'GET', view(c.globalId as string))).status).to.equal(404);
    const created = await call(writer.url, 'POST', INBOX, activity('Create', USERS.forwarder.org, c));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.position).to.match(/^\d+$/);
    const read = await call(follower.url, 'GET', view(c.globalId as string), undefined, { 'Dataspace-Position': created.position! });
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    expect(read.role).to.equal('follower');
    expect(Number(read.position)).to.be.at.least(Number(created.position));
    expect(read.body.globalId).to.equal(c.globalId);
  });

  it('shows a follower what the writer changed since it cached: an event added, a token revoked', async () => {
    const [writer, follower] = [replicas[0]!, replicas[2]!];
    const c = consignment();
    const created = await call(writer.url, 'POST', INBOX, activity('Create', USERS.forwarder.org, c));
    const cached = await call(follower.url, 'GET', view(c.globalId as string), undefined, { 'Dataspace-Position': created.position! });
    expect(cached.body.events ?? []).to.deep.equal([]);
    const added = await call(writer.url, 'POST', INBOX, activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    const read = await call(follower.url, 'GET', view(c.globalId as string), undefined, { 'Dataspace-Position': added.position! });
    expect((read.body.events as Json[]).map((e) => e.typeCode)).to.deep.equal(['svc:despatched']);

    // A token ended on the writer is refused by the follower once it has that commit.
    const ending = await logIn(writer.url, 'forwarder');
    const before = await fetch(`${follower.url}${view(c.globalId as string)}`, { headers: { authorization: `Bearer ${ending}` } });
    expect(before.status).to.equal(200);
    const out = await fetch(`${writer.url}/authentication/logout`, { method: 'POST', headers: { authorization: `Bearer ${ending}` } });
    expect(out.status).to.be.below(400);
    const after = await fetch(`${follower.url}${view(c.globalId as string)}`, {
      headers: { authorization: `Bearer ${ending}`, 'Dataspace-Position': out.headers.get('dataspace-position')! },
    });
    expect(after.status).to.equal(401);
  });

  it('takes a Create on any replica and reads it on every other', async () => {
    for (const [i, through] of replicas.entries()) {
      const c = consignment();
      const created = await call(through.url, 'POST', INBOX, activity('Create', USERS.forwarder.org, c));
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      // A follower's answer is the writer's, forwarded whole.
      expect(created.role).to.equal('writer');
      for (const other of replicas.filter((_, j) => j !== i)) {
        const read = await call(other.url, 'GET', view(c.globalId as string), undefined, { 'Dataspace-Position': created.position! });
        expect(read.status, `replica ${replicas.indexOf(other) + 1}: ${JSON.stringify(read.body)}`).to.equal(200);
        expect(read.body.globalId).to.equal(c.globalId);
      }
    }
  });

  it('answers retries spread over the replicas once each, with the first entry, 0 duplicates', async () => {
    const sent = Array.from({ length: 12 }, () => {
      const c = consignment();
      return { c, body: { ...activity('Create', USERS.forwarder.org, c), id: `urn:uuid:${newGlobalId().slice(9)}` } };
    });
    // Each activity sent through one replica and at once again through the two others, all at the same time.
    const answers = await Promise.all(
      sent.map(({ body }, n) => Promise.all([0, 1, 2].map((k) => call(replicas[(n + k) % 3]!.url, 'POST', INBOX, body)))),
    );
    for (const [n, copies] of answers.entries()) {
      for (const copy of copies) expect([200, 201], JSON.stringify(copy.body)).to.include(copy.status);
      expect(new Set(copies.map((copy) => copy.body.id)), `activity ${n}: one entry`).to.have.property('size', 1);
    }
    const counted = await asPostgres(databaseUrl, 'SELECT count(*)::int AS n FROM dataspace_consignment WHERE global_id = ANY($1)', [
      sent.map(({ c }) => c.globalId as string),
    ]);
    expect(counted[0]!.n, 'one catalog row each').to.equal(sent.length);
    // A retry later through the proxy is answered with the first entry too.
    const again = await call(proxy.url, 'POST', INBOX, sent[0]!.body);
    expect(again.body.id).to.equal(answers[0]![0]!.body.id);
  });

  it('keeps a follower current without its notifications, by polling, within a bounded time', async () => {
    const [writer, follower] = [replicas[0]!, replicas[2]!];
    const c = consignment();
    const created = await call(writer.url, 'POST', INBOX, activity('Create', USERS.forwarder.org, c));
    const cached = await call(follower.url, 'GET', view(c.globalId as string), undefined, { 'Dataspace-Position': created.position! });
    expect(cached.status).to.equal(200);
    // PostgreSQL ends the follower's listening session, as a network cut or a restart would.
    const ended = await asPostgres(
      databaseUrl,
      "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'dataspace follower ' || $1",
      [String(follower.pid)],
    );
    expect(ended.map((row) => row.ended)).to.deep.equal([true]);
    const added = await call(writer.url, 'POST', INBOX, activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
    expect(added.status).to.equal(201);
    // No position sent: the follower answers with what it has, at most about its poll interval behind.
    const sent = Date.now();
    let events: Json[] = [];
    while (events.length === 0 && Date.now() - sent < 10_000) {
      events = ((await call(follower.url, 'GET', view(c.globalId as string))).body.events as Json[] | undefined) ?? [];
      if (events.length === 0) await new Promise((ok) => setTimeout(ok, 50));
    }
    expect(
      events.map((e) => e.typeCode),
      'the follower caught up',
    ).to.deep.equal(['svc:despatched']);
  });

  it('refuses a position that is not one with 400 and waits boundedly for one not reached', async () => {
    const follower = replicas[2]!;
    const bad = await call(follower.url, 'GET', view(newGlobalId()), undefined, { 'Dataspace-Position': 'soon' });
    expect(bad.status).to.equal(400);
    expect(bad.body.name).to.equal('BadRequest');
    const started = Date.now();
    const ahead = await call(follower.url, 'GET', view(newGlobalId()), undefined, { 'Dataspace-Position': '999999999999' });
    expect(ahead.status).to.equal(503);
    expect(ahead.body.name).to.equal('ServiceUnavailable');
    expect(Date.now() - started, 'bounded by DATASPACE_REPLICA_READ_WAIT_MS').to.be.within(2500, 15_000);
  });

  // Last: it stops a follower (the after hook's SIGTERM finds it gone).
  it('stops a follower on SIGTERM as gracefully as a writer: the request it holds is answered, then exit 0', async () => {
    const follower = replicas[2]!;
    // A read waiting for a position the set has not reached is in flight for up to the read wait (3 s).
    const held = call(follower.url, 'GET', view(newGlobalId()), undefined, { 'Dataspace-Position': '999999999999' });
    await new Promise((ok) => setTimeout(ok, 500));
    const exited = follower.exited();
    await follower.kill('SIGTERM');
    const answer = await held;
    expect(answer.status, 'answered, not cut').to.equal(503);
    expect(answer.body.name).to.equal('ServiceUnavailable');
    expect(await exited).to.equal(0);
    expect(follower.output).to.match(/"stopped"/);
  });
});
