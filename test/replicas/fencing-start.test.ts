import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, newGlobalId } from '../helpers/payloads.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { logIn, TEST_SEED, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const missing = postgresMissing() ?? virtuosoMissing();
const LEASE_MS = 1000;
/**
 * Users whose passwords the seed gives in clear: each is hashed at start (scrypt, tens of ms of CPU),
 * so loading the seed outlasts the lease's trusted time (0.8 s) on any machine.
 */
const SEED_USERS = 60;

/** The test seed with SEED_USERS more users of the forwarder, in a file of its own. */
function slowSeed(): string {
  const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as { users: unknown[] };
  for (let i = 0; i < SEED_USERS; i++)
    seed.users.push({ email: `clerk${i}@forwarder.example`, password: `clerk-pass-${i}`, organisation: USERS.forwarder.org });
  const path = join(scratchDir('dataspace-seed-'), 'seed.json');
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

/** Waits until `replica` logged a line with `text`. */
async function untilLogged(replica: NodeProcess, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!replica.output.includes(text)) {
    if (!replica.running || Date.now() > deadline) throw new Error(`the replica did not log "${text}":\n${replica.output}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

describe('replicas: a writer that cannot confirm its lease while it loads the seed steps down cleanly', function () {
  this.timeout(120_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let locker: pg.Client | undefined;
  const replicas: NodeProcess[] = [];

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
    await locker?.end().catch(() => undefined);
    await Promise.all([virtuoso?.stop(), postgres?.stop()]);
  });

  it('stops with exit code 1 and one line saying why (no unhandled rejection), and a replica started again takes the lease and serves', async function () {
    if (missing) this.skip(); // reason: no PostgreSQL or Virtuoso here; .ci/run installs both from Debian
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
    const databaseUrl = await postgres.database('dataspace');
    const seed = slowSeed();
    const start = async () => {
      const replica = await NodeProcess.start({
        ...virtuoso.env(),
        DATABASE_URL: databaseUrl,
        DATASPACE_DATA_DIR: join(scratchDir('dataspace-replica-'), 'data'),
        DATASPACE_SEED: seed,
        DATASPACE_REPLICA_CHECK_MS: '100',
        DATASPACE_REPLICA_LEASE_MS: String(LEASE_MS),
        DATASPACE_REPLICA_TAKEOVER_MS: '500',
        DATASPACE_READER_THREADS: '1',
      });
      replicas.push(replica);
      return replica;
    };
    locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();

    const first = await start();
    await untilLogged(first, 'holding the writer lease');
    // PostgreSQL stops answering the lease's renewals (the row locked, as a long pause would): the
    // writer's trusted time runs out while it loads the seed, and the seed's next update is refused.
    const paused = Date.now();
    await locker.query('BEGIN');
    await locker.query('SELECT holder FROM dataspace_writer FOR UPDATE');
    const code = await first.exited();
    const stoppedAfter = Date.now() - paused;
    await locker.query('ROLLBACK');
    const lines = first.output.split('\n');
    const why = lines.find((line) => line.includes('stepping down'));
    console.log(`      the writer stopped ${stoppedAfter} ms after the pause began: ${why?.slice(0, 300)}`);
    expect(code, first.output).to.equal(1);
    expect(why, first.output).to.not.equal(undefined);
    expect(why, 'the reason names the unconfirmed lease').to.include('cannot confirm it still holds the writer lease');
    expect(first.output, 'no unhandled rejection, no stack').to.not.match(/unhandled|Unhandled|\n\s+at /);
    expect(first.output, 'it never served as the writer').to.not.include('serving as the writer');

    // As its supervisor would: started again, it takes the lease once the old one expired, and serves.
    const again = await start();
    await again.untilRole('writer', 60_000);
    const forwarder = await logIn(again.url, 'forwarder');
    const res = await fetch(`${again.url}/supply-chain/data-space/inbox`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forwarder}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...activity('Create', USERS.forwarder.org, consignment()), id: newGlobalId() }),
    });
    expect(res.status, await res.text()).to.equal(201);
    expect(again.output).to.include('"epoch":2');
  });
});
