import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, event, newGlobalId, target, type Json } from '../helpers/payloads.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { pause, SignalReceiver, testSecret } from '../helpers/signal-receiver.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';

const INBOX = '/supply-chain/data-space/inbox';
const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;

/** Writers at once; each publishes a Create and a Despatch a consignment until told to stop. */
const WRITERS = 4;
/** The server is killed once this many consignments were published whole, and kept away this long. */
const KILL_AFTER = 12;
const AWAY_MS = 10_000;

for (const variant of ['a single node', 'a replica set'] as const)
  describe(`${variant} on Virtuoso: the server killed mid-flow and away for 10 s`, function () {
    this.timeout(240_000);
    let virtuoso: Virtuoso;
    let receiver: SignalReceiver;
    let node: NodeProcess;
    let postgres: Postgres | undefined;

    before(async function () {
      const missing = virtuosoMissing() ?? (variant === 'a replica set' ? postgresMissing() : undefined);
      if (missing) this.skip(); // reason: no Virtuoso (or PostgreSQL) here; .ci/run installs them from Debian
      [virtuoso, receiver] = await Promise.all([Virtuoso.start(), SignalReceiver.start()]);
      // The replica set's writer: its catalog, ledger and lease in PostgreSQL, the same deliverer.
      postgres = variant === 'a replica set' ? await Postgres.start() : undefined;
      const replica: Record<string, string> = postgres
        ? { DATABASE_URL: await postgres.database('dataspace'), DATASPACE_REPLICA_CHECK_MS: '500' }
        : {};
      node = await NodeProcess.start({
        ...virtuoso.env(),
        ...replica,
        DATASPACE_DATA_DIR: join(scratchDir('dataspace-outage-'), 'data'),
        DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
        DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1',
        DATASPACE_NOTIFY_RETRY_MS: '50',
        DATASPACE_READER_THREADS: '1',
        // A request to the stopped server fails at once (connection refused); the limit only bounds a hang.
        DATASPACE_SPARQL_STORE_TIMEOUT_MS: '5000',
      });
      await node.until(200);
    });

    after(async () => {
      await node?.kill('SIGTERM');
      await Promise.all([virtuoso?.stop(), receiver?.close(), postgres?.stop()]);
    });

    it('loses nothing acknowledged, keeps every signal queued and in order, answers /healthz, and writes within 5 s of the return', async () => {
      const forwarder = await logIn(node.url, 'forwarder');
      const border = await logIn(node.url, 'border');
      const call = (token: string, method: string, path: string, body?: unknown) =>
        fetch(`${node.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const put = await call(border, 'PUT', ENDPOINT, { url: receiver.url, secret: testSecret('outage') });
      expect(put.status, await put.text()).to.equal(200);

      // An activity not answered `completed` because the store is away is sent again with its id, as a
      // client does; anything but a server-side failure fails the test.
      const failures = new Map<number, number>();
      const send = async (body: Json): Promise<void> => {
        const sent = { ...body, id: newGlobalId() };
        for (;;) {
          const res = await call(forwarder, 'POST', INBOX, sent).catch(() => undefined);
          const text = (await res?.text()) ?? '';
          if (res && (res.status === 200 || res.status === 201) && (JSON.parse(text) as { status?: string }).status === 'completed') return;
          expect([500, 503], `the inbox answered ${res?.status}: ${text}`).to.include(res?.status);
          failures.set(res!.status, (failures.get(res!.status) ?? 0) + 1);
          await pause(100);
        }
      };

      const acknowledged: string[] = [];
      let writing = true;
      const writers = Array.from({ length: WRITERS }, async () => {
        while (writing) {
          const c = consignment();
          await send(activity('Create', USERS.forwarder.org, c));
          await send(activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
          acknowledged.push(c.globalId);
        }
      });

      while (acknowledged.length < KILL_AFTER) await pause(10);
      await virtuoso.kill('SIGKILL');
      const killedAt = Date.now();
      const atKill = acknowledged.length;
      // The process answers its liveness probe all along: it needs no store.
      const health: number[] = [];
      while (Date.now() - killedAt < AWAY_MS) {
        const res = await fetch(`${node.url}/healthz`).catch(() => undefined);
        await res?.body?.cancel();
        health.push(res?.status ?? 0);
        await pause(200);
      }
      expect(health.length).to.be.greaterThan(10);
      expect(new Set(health), 'healthz while the server is away').to.deep.equal(new Set([200]));
      await virtuoso.restart();
      const backAt = Date.now();
      // A new consignment's Create, tried every 100 ms from the server's return: the time until it is taken.
      await send(activity('Create', USERS.forwarder.org, consignment()));
      const serviceMs = Date.now() - backAt;
      const more = acknowledged.length + 8;
      while (acknowledged.length < more) await pause(20);
      writing = false;
      await Promise.all(writers);
      expect(node.running, `the node is still running:\n${node.output}`).to.equal(true);
      expect(failures.get(503) ?? 0, 'writes met the outage and were told to come back (503)').to.be.greaterThan(0);
      expect(serviceMs, 'writes taken again within 5 s of the return').to.be.lessThan(5000);

      // Nothing acknowledged is lost: each consignment reads back with its event.
      for (const globalId of acknowledged) {
        const res = await call(forwarder, 'GET', view(globalId));
        const text = await res.text();
        expect(res.status, `${globalId}: ${text}`).to.equal(200);
        expect((JSON.parse(text) as { events?: unknown[] }).events, globalId).to.have.length(1);
      }
      // Every signal arrives, the PreNotification of each consignment before its Despatch, and none is left pending.
      const kinds = (globalId: string) => receiver.about(globalId).map((r) => r.json.type as string);
      await receiver.until(() => acknowledged.every((g) => kinds(g).includes('PreNotification') && kinds(g).includes('Despatch')), 60_000);
      // Once each: an outcome the store could not record is recorded later, not sent again.
      for (const globalId of acknowledged) expect(kinds(globalId), globalId).to.deep.equal(['PreNotification', 'Despatch']);
      const pendingLeft = async () => {
        let n = 0;
        for (const globalId of acknowledged) {
          const res = await call(forwarder, 'GET', `${view(globalId)}/deliveries`);
          expect(res.status).to.equal(200);
          n += ((await res.json()) as { state: string }[]).filter((d) => d.state !== 'delivered').length;
        }
        return n;
      };
      let left = await pendingLeft();
      for (let i = 0; i < 50 && left > 0; i++) {
        await pause(200);
        left = await pendingLeft();
      }
      expect(left, 'deliveries not recorded delivered').to.equal(0);
      console.log(
        `      outage: ${atKill} consignments before the kill, ${acknowledged.length} in all; answers while away ` +
          `${JSON.stringify(Object.fromEntries(failures))}; a write taken ${serviceMs} ms after the return; ` +
          `${receiver.received.length} signals received`,
      );
    });
  });
