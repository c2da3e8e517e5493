import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { HaProxy, haproxyMissing } from '../helpers/haproxy.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, newGlobalId } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { only } from '../helpers/present.js';
import { ReplicaLoad } from '../helpers/replica-load.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const INBOX = '/supply-chain/data-space/inbox';
const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const VIEW = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;

/** The status `url` answers a GET with `headers`, and the error's message when not 200 (0 when it does not answer within 8 s). */
async function statusOf(url: string, token: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers }, signal: AbortSignal.timeout(8_000) }).catch(
    () => undefined,
  );
  const text = (await res?.text().catch(() => '')) ?? '';
  return res?.status === 200 ? '200' : `${res?.status ?? 0} ${text.slice(0, 300)}`;
}
const missing = postgresMissing() ?? virtuosoMissing() ?? haproxyMissing();
/** Writers at once under each fault. */
const WRITERS = 8;

describe('replicas: a writer lease with an epoch fences frozen writers, outlives PostgreSQL outages, and a set knows itself', function () {
  this.timeout(300_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let receiver: SignalReceiver;
  let proxy: HaProxy | undefined;
  let databaseUrl: string;
  const replicas: NodeProcess[] = [];

  const env = (store: Virtuoso, database: string): Record<string, string> => ({
    ...store.env(),
    DATABASE_URL: database,
    DATASPACE_DATA_DIR: join(scratchDir('dataspace-replica-'), 'data'),
    DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
    DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1',
    DATASPACE_NOTIFY_RETRY_MS: '50',
    DATASPACE_REPLICA_CHECK_MS: '200',
    DATASPACE_REPLICA_LEASE_MS: '2000',
    DATASPACE_REPLICA_TAKEOVER_MS: '500',
    DATASPACE_READER_THREADS: '1',
  });
  const startReplica = async (): Promise<NodeProcess> => {
    const replica = await NodeProcess.start(env(virtuoso, databaseUrl));
    replicas.push(replica);
    return replica;
  };

  before(async function () {
    if (missing) this.skip(); // reason: no PostgreSQL, Virtuoso or HAProxy here; .ci/run installs all three from Debian
    [postgres, virtuoso, receiver] = await Promise.all([Postgres.start(), Virtuoso.start(), SignalReceiver.start()]);
    databaseUrl = await postgres.database('dataspace');
    await (await startReplica()).untilRole('writer');
    await (await startReplica()).untilRole('follower');
    proxy = await HaProxy.start(replicas.map((r) => r.port));
    await proxy.settled();
    const border = await logIn(proxy.url, 'border');
    const put = await fetch(`${proxy.url}${ENDPOINT}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${border}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, secret: testSecret('fencing') }),
    });
    expect(put.status, await put.text()).to.equal(200);
  });

  afterEach(function () {
    // A fault case that fails is read from the replicas' own account of it: roles, leases, refusals.
    if (this.currentTest?.state !== 'failed') return;
    for (const r of replicas) console.log(`--- replica ${r.port} (running: ${r.running}) ---\n${r.output.slice(-6_000)}`);
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
    await Promise.all([proxy?.stop(), virtuoso?.stop(), postgres?.stop(), receiver?.close()]);
  });

  it('refuses to start a replica whose store and database are two sets: the same database with another store, the same store with another database', async () => {
    const identity = String(only(await asPostgres(databaseUrl, 'SELECT identity FROM dataspace_set')).identity);
    const otherStore = await Virtuoso.start();
    try {
      const wrongStore = await NodeProcess.start(env(otherStore, databaseUrl));
      expect(await wrongStore.exited()).to.not.equal(0);
      const line = wrongStore.output.split('\n').find((l) => l.includes('refusing to start'));
      expect(line, wrongStore.output).to.include(`holds set ${identity}`).and.include('holds set (none)').and.include(otherStore.sparqlUrl);
    } finally {
      await otherStore.stop();
    }
    const wrongDatabase = await NodeProcess.start(env(virtuoso, await postgres.database('another')));
    expect(await wrongDatabase.exited()).to.not.equal(0);
    const line = wrongDatabase.output.split('\n').find((l) => l.includes('refusing to start'));
    expect(line, wrongDatabase.output).to.include(`holds set ${identity}`).and.include('holds set (none)').and.include('/another');
    // The set's own replicas were not disturbed: the writer still serves.
    expect(await replicas[0]!.readiness()).to.equal(200);
  });

  it('replaces a frozen writer within seconds; woken, it acknowledges nothing, and nothing acknowledged is lost or applied twice', async () => {
    const [frozen, standby] = [replicas[0]!, replicas[1]!];
    const forwarder = await logIn(proxy!.url, 'forwarder');
    const load = new ReplicaLoad(proxy!.url, forwarder, WRITERS);
    await load.more(10);
    process.kill(frozen.pid, 'SIGSTOP');
    const stoppedAt = Date.now();
    // Sent straight to the frozen writer: they wait in its socket until it wakes.
    const direct = [0, 1, 2].map(() =>
      fetch(`${frozen.url}${INBOX}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...activity('Create', USERS.forwarder.org, consignment()), id: newGlobalId() }),
      }).then(
        (res) => res.status,
        () => 0,
      ),
    );
    await standby.untilRole('writer', 30_000);
    const servedAfter = Date.now() - stoppedAt;
    await load.more(10);
    const gap = load.gapAfter(stoppedAt - 1);
    process.kill(frozen.pid, 'SIGCONT');
    expect(await frozen.exited(), 'the woken writer stops').to.equal(1);
    expect(frozen.output).to.include('lost the writer lease');
    const statuses = await Promise.all(direct);
    expect(
      statuses.filter((s) => s >= 200 && s < 300),
      `the woken writer acknowledged nothing: ${statuses.join(', ')}`,
    ).to.deep.equal([]);
    await load.more(5);
    await load.stop();
    await load.checkAllKept(forwarder);
    await load.checkSignals(receiver);
    console.log(
      `      frozen writer: the standby serves as the writer after ${servedAfter} ms, longest time without an acknowledged write ${gap} ms; ` +
        `${load.acknowledged.length} consignments, ${load.retries} activities sent again; woken writer answered ${statuses.join(', ')}`,
    );
    expect(gap, 'a standby takes writes within 15 s').to.be.below(15_000);
  });

  it('outlives PostgreSQL stopped for 10 s: no replica exits, writes are taken again within 5 s of its return, nothing lost, followers catch up', async () => {
    const writer = replicas.find((r) => r.running)!;
    expect(await writer.role(), "the frozen writer's standby holds the lease").to.equal('writer');
    const follower = await startReplica();
    await follower.untilRole('follower');
    const forwarder = await logIn(proxy!.url, 'forwarder');
    const load = new ReplicaLoad(proxy!.url, forwarder, WRITERS);
    await load.more(10);
    const before = load.acknowledged.at(-1)!;
    const entry = await fetch(`${proxy!.url}${INBOX}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
      body: JSON.stringify(activity('Create', USERS.forwarder.org, consignment())),
    });
    const logEntry = `/supply-chain/data-space/activity-logs/${encodeURIComponent(((await entry.json()) as { id: string }).id)}`;
    await postgres.halt();
    const haltedAt = Date.now();
    await new Promise((ok) => setTimeout(ok, 3_000));
    // A new write sent to the writer now: it cannot renew its lease, so it takes none.
    const refused = await fetch(`${writer.url}${INBOX}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...activity('Create', USERS.forwarder.org, consignment()), id: newGlobalId() }),
      signal: AbortSignal.timeout(5_000),
    });
    const refusal = (await refused.json()) as { name?: string };
    expect([refused.status, refusal.name]).to.deep.equal([503, 'ServiceUnavailable']);
    // A read that needs neither PostgreSQL nor a write (an activity-log entry, from the store) answers on
    // every replica; a consignment's view reads the catalog in PostgreSQL: 503, never a 500.
    const logged = await Promise.all([writer, follower].map((r) => statusOf(`${r.url}${logEntry}`, forwarder)));
    const viewed = await Promise.all([writer, follower].map((r) => statusOf(`${r.url}${VIEW(before)}`, forwarder)));
    await new Promise((ok) => setTimeout(ok, 10_000 - (Date.now() - haltedAt)));
    expect([await writer.readiness(), await follower.readiness()], 'both answer their probe').to.deep.equal([200, 200]);
    // Answers given while PostgreSQL is away are retries of activities the store had applied.
    const during = load.ackedAt.filter((t) => t > haltedAt + 2_000).length;
    await postgres.resume();
    const back = Date.now();
    await load.more(10, 30_000);
    const firstAfter = Math.min(...load.ackedAt.filter((t) => t > back)) - back;
    await load.stop();
    expect([writer.running, follower.running], `${writer.output}\n${follower.output}`).to.deep.equal([true, true]);
    await load.checkAllKept(forwarder);
    await load.checkSignals(receiver);
    // The follower catches up: the last write, read from it at the writer's position.
    const last = await fetch(`${writer.url}${VIEW(load.acknowledged.at(-1)!)}`, { headers: { authorization: `Bearer ${forwarder}` } });
    await last.body?.cancel();
    const position = last.headers.get('dataspace-position')!;
    const caughtUp = await statusOf(`${follower.url}${VIEW(load.acknowledged.at(-1)!)}`, forwarder, { 'dataspace-position': position });
    expect([last.status, caughtUp], "the follower has the writer's last commit").to.deep.equal([200, '200']);
    console.log(
      `      PostgreSQL away 10 s: a new write answered ${refused.status}; an activity-log entry ${logged.join(', ')}; ` +
        `a view ${viewed.map((v) => v.slice(0, 3)).join(', ')} (writer, follower); ${during} retries ` +
        `answered from the store; first write acknowledged ${firstAfter} ms after its return; ${load.acknowledged.length} consignments, ` +
        `${load.retries} activities sent again`,
    );
    expect(logged, 'an activity-log entry answers from the store').to.deep.equal(['200', '200']);
    expect(
      viewed.every((v) => v.startsWith('503 {"name":"ServiceUnavailable"')),
      `a view needs the catalog: 503, not ${viewed.join(' | ')}`,
    ).to.equal(true);
    expect(firstAfter, 'writes taken again within 5 s of its return').to.be.below(5_000);
  });
});
