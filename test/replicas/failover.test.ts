import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { HaProxy, haproxyMissing } from '../helpers/haproxy.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { only } from '../helpers/present.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { SignalReceiver, testSecret, type Received } from '../helpers/signal-receiver.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const INBOX = '/supply-chain/data-space/inbox';
const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;
const missing = postgresMissing() ?? virtuosoMissing() ?? haproxyMissing();

/** Writers at once, and the consignments each publishes (a Create and an Add each). */
const WRITERS = 4;
const PER_WRITER = 25;
/** The writer is killed once this many consignments were published whole. */
const KILL_AFTER = 30;

describe('replicas: two nodes on PostgreSQL and Virtuoso behind HAProxy, the writer killed under load', function () {
  this.timeout(240_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let proxy: HaProxy;
  let receiver: SignalReceiver;
  const replicas: NodeProcess[] = [];
  const dataDirs: string[] = [];
  let databaseUrl: string;

  const sql = (text: string, values: unknown[] = []) => asPostgres(databaseUrl, text, values);
  /** The PostgreSQL backend of a replica's lease session. */
  const leaseBackend = async (replica: NodeProcess): Promise<number> =>
    Number(only(await sql('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`dataspace writer lease ${replica.pid}`])).pid);

  const startReplica = (): Promise<NodeProcess> => {
    dataDirs.push(join(scratchDir('dataspace-replica-'), 'data'));
    return NodeProcess.start({
      ...virtuoso.env(),
      DATABASE_URL: databaseUrl,
      DATASPACE_DATA_DIR: dataDirs.at(-1)!,
      DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
      DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1',
      DATASPACE_NOTIFY_RETRY_MS: '50',
      DATASPACE_REPLICA_CHECK_MS: '200',
      DATASPACE_REPLICA_LEASE_MS: '2000',
      DATASPACE_REPLICA_TAKEOVER_MS: '1000',
      DATASPACE_READER_THREADS: '1',
      DATASPACE_LOGIN_ACCOUNT_ADDRESS_FAILURES: '3',
    });
  };

  before(async function () {
    if (missing) this.skip(); // reason: no PostgreSQL, Virtuoso or HAProxy here; .ci/run installs all three from Debian
    [postgres, virtuoso, receiver] = await Promise.all([Postgres.start(), Virtuoso.start(), SignalReceiver.start()]);
    databaseUrl = await postgres.database('dataspace');
    for (let i = 0; i < 2; i++) {
      replicas.push(await startReplica());
      // The first holds the writer lease before the second starts, so which one serves is known.
      await replicas[i]!.untilRole(i === 0 ? 'writer' : 'follower');
    }
    proxy = await HaProxy.start(replicas.map((r) => r.port));
    await proxy.settled();
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGTERM')));
    await Promise.all([proxy?.stop(), virtuoso?.stop(), postgres?.stop(), receiver?.close()]);
  });

  it('loses no acknowledged activity, delivers every signal at least once and in order, and keeps answering reads', async () => {
    const [first, second] = [replicas[0]!, replicas[1]!];
    expect(await second.role(), 'the second replica follows').to.equal('follower');
    // Tokens are signed with the secret the replicas share in PostgreSQL: one issued by the first is good on the second.
    const forwarder = await logIn(proxy.url, 'forwarder');
    const border = await logIn(proxy.url, 'border');
    const call = (token: string, method: string, path: string, body?: unknown) =>
      fetch(`${proxy.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const put = await call(border, 'PUT', ENDPOINT, { url: receiver.url, secret: testSecret('replicas') });
    expect(put.status, await put.text()).to.equal(200);

    // An activity not answered (connection cut, 502/503 from the proxy) is sent again with the same id
    // until it is, as a client of the inbox does.
    let retries = 0;
    const send = async (body: unknown) => {
      for (;;) {
        const res = await call(forwarder, 'POST', INBOX, body).catch(() => undefined);
        const answer = res && ((await res.json().catch(() => undefined)) as { status?: string } | undefined);
        if (res && (res.status === 200 || res.status === 201) && answer?.status === 'completed') return;
        expect([undefined, 502, 503, 504], `the inbox answered ${res?.status}: ${JSON.stringify(answer)}`).to.include(res?.status);
        retries++;
        await new Promise((ok) => setTimeout(ok, 100));
      }
    };
    // A document with its file, kept by the first writer: its bytes are in PostgreSQL, not on its disk.
    const filed = consignment();
    await send({ ...activity('Create', USERS.forwarder.org, filed), id: newGlobalId() });
    await send({ ...activity('Add', USERS.forwarder.org, document('INV-R'), target(filed)), id: newGlobalId() });

    // Reads all along: the border agency lists its consignments every 50 ms through the proxy.
    const reads: { at: number; status: number; why?: string }[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const res = await call(border, 'GET', '/supply-chain/data-space/consignments?limit=5').catch(() => undefined);
        const text = res?.status === 200 ? await res.body?.cancel() : await res?.text();
        reads.push({
          at: Date.now(),
          status: res?.status ?? 0,
          why: `${res?.headers.get('dataspace-replica') ?? ''} ${text ?? ''}`.slice(0, 120),
        });
        await new Promise((ok) => setTimeout(ok, 50));
      }
    })();

    // Writers send, per consignment, a Create and then an Add of its despatch, each with an id.
    const acknowledged: string[] = [];
    let killedAt = 0;
    // One signal is left unanswered just before the kill: the dying writer has it in flight, so the
    // writer that takes over must send it again, with its webhook id, and the Despatch behind it after it.
    let hung: Received | undefined;
    receiver.respond = (r) => {
      if (hung || acknowledged.length < KILL_AFTER - 5) return 204;
      hung = r;
      return 'hang';
    };
    const killing = (async () => {
      while (acknowledged.length < KILL_AFTER || !hung) await new Promise((ok) => setTimeout(ok, 10));
      killedAt = Date.now();
      await first.kill('SIGKILL');
    })();
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        for (let n = 0; n < PER_WRITER; n++) {
          const c = consignment();
          await send({ ...activity('Create', USERS.forwarder.org, c), id: newGlobalId() });
          await send({ ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)), id: newGlobalId() });
          acknowledged.push(c.globalId);
        }
      }),
    );
    await killing;
    expect(killedAt, 'the writer was killed under load').to.be.greaterThan(0);
    expect(retries, 'some writes met the kill and were sent again').to.be.greaterThan(0);

    // 0 acknowledged activities lost: each consignment is read back through the proxy, with its event.
    // A 503 (the proxy between two health checks on a loaded machine, the new writer catching up) is
    // asked again, as a client does; a consignment not found is not.
    const readBack = async (globalId: string): Promise<Response> => {
      for (let tries = 0; ; tries++) {
        const res = await call(forwarder, 'GET', view(globalId));
        if (![502, 503, 504].includes(res.status) || tries === 30) return res;
        await res.body?.cancel();
        await new Promise((ok) => setTimeout(ok, 500));
      }
    };
    for (const globalId of acknowledged) {
      const res = await readBack(globalId);
      const text = await res.text();
      expect(res.status, `${globalId}: ${text}`).to.equal(200);
      expect((JSON.parse(text) as { events?: unknown[] }).events, globalId).to.have.length(1);
    }

    // The document's file is served by the writer that took over, from PostgreSQL.
    const file = await fetch(`${proxy.url}${view(filed.globalId)}/documents/INV-R`, {
      headers: { accept: 'application/pdf', authorization: `Bearer ${forwarder}` },
    });
    expect(file.status).to.equal(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from('JVBERi0xLjQKJcfsj6IK', 'base64'))).to.equal(true);

    // Every signal at least once (a PreNotification and a Despatch a consignment), and for each
    // consignment in the order they were raised: the first Despatch after the first PreNotification.
    const kinds = (globalId: string, received = receiver.received) =>
      received.filter((r) => r.json?.consignment?.globalId === globalId).map((r) => r.json.type as string);
    await receiver.until(
      (received) => acknowledged.every((globalId) => ['PreNotification', 'Despatch'].every((k) => kinds(globalId, received).includes(k))),
      60_000,
    );
    for (const globalId of acknowledged) {
      const arrived = kinds(globalId);
      expect(arrived.indexOf('PreNotification'), `${globalId}: ${arrived.join(', ')}`).to.be.lessThan(arrived.indexOf('Despatch'));
    }
    // A signal sent again carries the webhook id it had; two signals never share one.
    const ids = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const signal = `${r.json?.consignment?.globalId as string} ${r.json?.type as string}`;
      ids.set(signal, (ids.get(signal) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    for (const [signal, webhookIds] of ids) expect([...webhookIds], signal).to.have.length(1);
    const again = receiver.received.filter((r) => r.headers['webhook-id'] === hung!.headers['webhook-id']);
    expect(again.length, 'the signal in flight at the kill was sent again').to.be.at.least(2);
    expect(again.map((r) => r.body)).to.deep.equal(again.map(() => hung!.body));
    expect(new Set([...ids.values()].flatMap((set) => [...set])).size).to.equal(ids.size);
    // The writer that took over lists every signal the receiver got, once: those the dead writer had
    // committed but not yet entered in the receivers' ledger in PostgreSQL too.
    const listed: string[] = [];
    for (let path: string | undefined = '/supply-chain/data-space/signals?limit=100'; path;) {
      const res = await call(border, 'GET', path);
      expect(res.status).to.equal(200);
      listed.push(...((await res.json()) as { signal: string }[]).map((s) => s.signal));
      path = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1];
    }
    expect(listed.length, 'each signal listed once').to.equal(new Set(listed).size);
    expect(new Set(listed)).to.deep.equal(new Set(receiver.received.map((r) => String(r.headers['webhook-id']))));

    // Reads kept answering: after the kill, the proxy sends them to the replica that took over.
    reading = false;
    await reader;
    const after = reads.filter((r) => r.at > killedAt);
    // Served again: the first read answered after the kill. A loaded machine may later fail a proxy's
    // health check now and then (200 ms, one failure marks a replica down): counted, not the takeover.
    const served = after.find((r) => r.status === 200)?.at ?? Infinity;
    const lastFailure = Math.max(killedAt, ...after.filter((r) => r.status !== 200).map((r) => r.at));
    expect(after.filter((r) => r.at > lastFailure).length, 'reads answer 200 after the takeover').to.be.greaterThan(0);
    expect(served - killedAt, 'the takeover took less than 20 s').to.be.lessThan(20_000);
    expect(await second.readiness()).to.equal(200);
    console.log(
      `      failover: ${served - killedAt} ms without reads, ${after.filter((r) => r.at > served && r.status !== 200).length} ` +
        `reads failed later; ${retries} writes sent again; ` +
        `${receiver.received.length} signals for ${acknowledged.length * 2} activities`,
    );
    // Nothing on the replicas' local disks: their state is in PostgreSQL and Virtuoso.
    for (const dir of dataDirs) expect(existsSync(dir), dir).to.equal(false);
  });

  it('keeps the writer whose lease session ends: it renews its lease on a new connection', async () => {
    const writer = replicas[1]!;
    expect(await writer.readiness()).to.equal(200);
    const standby = await startReplica();
    replicas.push(standby);
    await standby.untilRole('follower');
    // The writer's lease session is ended from PostgreSQL's side, as a restart or an operator would: the
    // lease is a row, not the session, so the writer reconnects and renews it, and no standby takes over.
    const ended = await sql('SELECT pg_terminate_backend($1) AS ended, $1::int AS pid', [await leaseBackend(writer)]);
    expect(only(ended).ended).to.equal(true);
    await new Promise((ok) => setTimeout(ok, 2_000));
    expect(writer.running, writer.output).to.equal(true);
    expect(await writer.readiness()).to.equal(200);
    expect(await standby.role()).to.equal('follower');
    expect(await leaseBackend(writer), 'a new lease session').to.not.equal(only(ended).pid);
  });

  it('hands the lease on without waiting when the writer stops cleanly, login throttles and all', async () => {
    // The writer kept its lease through the last test; the standby started there waits still.
    const [writer, standby] = [replicas[1]!, replicas[2]!];
    expect(await standby.role()).to.equal('follower');
    // Failed logins are counted in PostgreSQL: the replica that takes over goes on refusing the guesser.
    const login = (url: string, password: string) =>
      fetch(`${url}/authentication/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: USERS.port.email, password }),
      }).then(async (res) => ({ status: res.status, text: await res.text() }));
    for (let i = 0; i < 3; i++) expect((await login(writer.url, 'guess')).status).to.equal(401);
    expect((await login(writer.url, 'guess')).status).to.equal(429);
    await writer.kill('SIGTERM');
    await standby.untilRole('writer', 30_000);
    expect(standby.output).to.include('holding the writer lease');
    expect(standby.output, 'no takeover wait after a clean stop').not.to.include('stopped without letting it go');
    const refused = await login(standby.url, USERS.port.password);
    expect(refused.status, refused.text).to.equal(429);
  });

  it('keeps the writer whose lease session stops answering (a cut it cannot see): a statement times out, a new connection renews', async () => {
    const writer = replicas[2]!;
    expect(await writer.readiness()).to.equal(200);
    const standby = await startReplica();
    replicas.push(standby);
    await standby.untilRole('follower');
    // The PostgreSQL backend of the writer's lease session stops answering, its socket still open: as a
    // network cut looks from the writer's side. The renewal times out after the lease's time and goes
    // again on a new connection, in time: the lease never expires, so the standby never takes it.
    const backend = await leaseBackend(writer);
    process.kill(backend, 'SIGSTOP');
    try {
      await new Promise((ok) => setTimeout(ok, 3_000));
      expect(writer.running, writer.output).to.equal(true);
      expect(await standby.role(), 'no takeover while the writer renews').to.equal('follower');
      expect(await writer.readiness()).to.equal(200);
    } finally {
      process.kill(backend, 'SIGCONT');
    }
  });
});
