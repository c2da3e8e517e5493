import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { HaProxy, haproxyMissing } from '../helpers/haproxy.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, event, target, type Json } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { pause, SignalReceiver, signatureValid, testSecret, type Received } from '../helpers/signal-receiver.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const INBOX = '/supply-chain/data-space/inbox';
const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const missing = postgresMissing() ?? virtuosoMissing() ?? haproxyMissing();
const SECRET = testSecret('signals-any');

/** A consignment's signals as the receiver got them, in the order it got them. */
const kinds = (received: readonly Received[], globalId: string): string[] =>
  received.filter((r) => r.json?.consignment?.globalId === globalId).map((r) => r.json.type as string);

/** Both signals of each consignment arrived (a PreNotification for its Create, a Despatch for its event). */
const allArrived = (globalIds: readonly string[]) => (received: readonly Received[]) =>
  globalIds.every((g) => ['PreNotification', 'Despatch'].every((k) => kinds(received, g).includes(k)));

/**
 * Signals from any replica (docs/replicas.md): three replicas claim deliveries in PostgreSQL and send
 * them, a consignment × receiver's order holding across them; a replica killed with claims in flight
 * leaves them to expire and another sends them again, with the webhook id they had.
 */
describe('replicas: signals sent by every replica, three behind HAProxy', function () {
  this.timeout(120_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let proxy: HaProxy;
  let receiver: SignalReceiver;
  let databaseUrl: string;
  const replicas: NodeProcess[] = [];
  let forwarder: string;

  const sql = (text: string, values: unknown[] = []) => asPostgres(databaseUrl, text, values);
  const startReplica = (): Promise<NodeProcess> =>
    NodeProcess.start({
      ...virtuoso.env(),
      DATABASE_URL: databaseUrl,
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-signals-any-'), 'data'),
      DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
      DATASPACE_READER_THREADS: '1',
      DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1',
      DATASPACE_NOTIFY_RETRY_MS: '50',
      // An attempt times out after 2 s; a claim holds that and the lease (2 s) more.
      DATASPACE_NOTIFY_TIMEOUT_MS: '2000',
      // One attempt at a time to one receiver on each replica: the others take the rest of the queues.
      DATASPACE_NOTIFY_CONCURRENCY: '2',
      DATASPACE_REPLICA_CHECK_MS: '200',
      DATASPACE_REPLICA_LEASE_MS: '2000',
      DATASPACE_REPLICA_TAKEOVER_MS: '0',
    });

  const post = async (body: unknown): Promise<void> => {
    const res = await fetch(`${proxy.url}${INBOX}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).to.equal(201);
  };
  /** Consignments published through the proxy, four at a time: a Create, then the despatch event. */
  const publish = async (n: number): Promise<string[]> => {
    const made = Array.from({ length: n }, () => consignment());
    for (let i = 0; i < made.length; i += 4)
      await Promise.all(
        made.slice(i, i + 4).map(async (c) => {
          await post(activity('Create', USERS.forwarder.org, c));
          await post(activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
        }),
      );
    return made.map((c) => c.globalId as string);
  };
  /** The replicas that wrote deliveries' outcomes (sent_by is host:pid:tag). */
  const senders = async (): Promise<Set<number>> =>
    new Set(
      (await sql('SELECT DISTINCT sent_by FROM dataspace_delivery WHERE sent_by IS NOT NULL')).map((r) =>
        Number(String(r.sent_by).split(':')[1]),
      ),
    );

  before(async function () {
    if (missing) this.skip(); // reason: no PostgreSQL, Virtuoso or HAProxy here; .ci/run installs all three from Debian
    [postgres, virtuoso, receiver] = await Promise.all([Postgres.start(), Virtuoso.start(), SignalReceiver.start()]);
    databaseUrl = await postgres.database('dataspace');
    replicas.push(await startReplica());
    await replicas[0]!.untilRole('writer');
    replicas.push(...(await Promise.all([startReplica(), startReplica()])));
    await Promise.all(replicas.slice(1).map((r) => r.untilRole('follower')));
    proxy = await HaProxy.start(replicas.map((r) => r.port));
    await proxy.settled();
    forwarder = await logIn(proxy.url, 'forwarder');
    const border = await logIn(proxy.url, 'border');
    const put = await fetch(`${proxy.url}${ENDPOINT}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${border}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, secret: SECRET }),
    });
    expect(put.status, await put.text()).to.equal(200);
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGTERM')));
    await Promise.all([proxy?.stop(), virtuoso?.stop(), postgres?.stop(), receiver?.close()]);
  });

  it('sends from more than one replica, each signal once, in order, signed, and the writer records every outcome', async () => {
    // A receiver that takes 150 ms an answer keeps each replica's one slot busy: the queues spread.
    receiver.delayMs = 150;
    const globalIds = await publish(12);
    await receiver.until(allArrived(globalIds), 30_000);
    const pids = await senders();
    expect(pids.size, `deliveries made by ${[...pids].join(', ')}`).to.be.at.least(2);
    for (const pid of pids) expect(replicas.map((r) => r.pid)).to.include(pid);
    for (const g of globalIds) expect(kinds(receiver.received, g), g).to.deep.equal(['PreNotification', 'Despatch']);
    for (const r of receiver.received) expect(signatureValid(SECRET, r), 'signed with the receiver’s secret').to.equal(true);
    // The writer records each outcome in the store: the publisher's deliveries list shows them delivered.
    const list = async (): Promise<Json[]> => {
      const res = await fetch(`${proxy.url}/supply-chain/data-space/consignments/${encodeURIComponent(globalIds[0]!)}/deliveries`, {
        headers: { authorization: `Bearer ${forwarder}` },
      });
      return (await res.json()) as Json[];
    };
    let rows: Json[] = [];
    for (const started = Date.now(); Date.now() - started < 10_000; await pause(100)) {
      rows = await list();
      if (rows.length === 2 && rows.every((row) => row.state === 'delivered')) break;
    }
    expect(rows.map((row) => [row.type, row.state, row.attempts])).to.have.deep.members([
      ['PreNotification', 'delivered', 1],
      ['Despatch', 'delivered', 1],
    ]);
  });

  it('sends again what a replica killed with claims in flight held, with its webhook id, in order per consignment', async () => {
    receiver.delayMs = 0;
    const before = receiver.received.length;
    // Every attempt hangs: each replica holds a claim whose attempt is under way.
    receiver.respond = () => 'hang';
    // Published whole first: a write in flight on the replica killed would be cut off (that is failover.test.ts's case).
    const globalIds = await publish(6);
    const followers = replicas.slice(1).map((r) => r.pid);
    let victim: NodeProcess | undefined;
    let held: string[] = [];
    for (const started = Date.now(); !victim && Date.now() - started < 20_000; await pause(50)) {
      const claims = await sql('SELECT delivery, claimed_by FROM dataspace_delivery WHERE claim_expires_at > now()');
      const pid = followers.find((p) => claims.some((c) => String(c.claimed_by).split(':')[1] === String(p)));
      if (pid === undefined || receiver.received.length === before) continue;
      victim = replicas.find((r) => r.pid === pid);
      held = claims.filter((c) => String(c.claimed_by).split(':')[1] === String(pid)).map((c) => String(c.delivery));
    }
    expect(victim, 'a follower holds a claim in flight').to.not.equal(undefined);
    await victim!.kill('SIGKILL');
    const hung = receiver.received.slice(before);
    receiver.respond = () => 204;
    await receiver.until(allArrived(globalIds), 40_000);

    // Every signal at least once; a repeat carries the webhook id and body it had; no two signals share an id.
    const ids = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const signal = `${r.json?.consignment?.globalId as string} ${r.json?.type as string}`;
      ids.set(signal, (ids.get(signal) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    for (const [signal, webhookIds] of ids) expect([...webhookIds], signal).to.have.length(1);
    expect(new Set([...ids.values()].flatMap((set) => [...set])).size).to.equal(ids.size);
    for (const first of hung) {
      await receiver.until(
        (received) => received.filter((r) => r.headers['webhook-id'] === first.headers['webhook-id']).length >= 2,
        20_000,
      );
      const again = receiver.received.filter((r) => r.headers['webhook-id'] === first.headers['webhook-id']);
      expect(again.map((r) => r.body)).to.deep.equal(again.map(() => first.body));
    }
    // In order per consignment × receiver: no PreNotification after the first Despatch, repeats included.
    for (const g of globalIds) {
      const arrived = kinds(receiver.received, g);
      expect(arrived.lastIndexOf('PreNotification'), `${g}: ${arrived.join(', ')}`).to.be.lessThan(arrived.indexOf('Despatch'));
    }
    // The killed replica's claims were taken by another after they expired, and delivered.
    let rows: Record<string, unknown>[] = [];
    for (const started = Date.now(); Date.now() - started < 10_000; await pause(100)) {
      rows = await sql('SELECT state, sent_by FROM dataspace_delivery WHERE delivery = ANY($1)', [held]);
      if (rows.every((row) => row.state === 'delivered')) break;
    }
    expect(rows).to.have.length(held.length);
    for (const row of rows) {
      expect(row.state).to.equal('delivered');
      expect(String(row.sent_by).split(':')[1]).to.not.equal(String(victim!.pid));
    }
  });
});
