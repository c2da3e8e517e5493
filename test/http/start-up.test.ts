import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createNode } from '../../src/node.js';
import { SeedError } from '../../src/core/registry/seed.js';
import { TestNode, TEST_SEED, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const silent = createLogger('silent');

/** Every quad the node's store holds, counted by the store itself (the activity log's apart too). */
async function quadCount(node: TestNode): Promise<number> {
  const count = 'SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }';
  const [main, log] = [node.node.store, node.node.store.activityLog];
  const counted = async (store: typeof log) => Number((await store.select(count))[0]?.get('n')?.value);
  return (await counted(main)) + (log === main ? 0 : await counted(log));
}

describe('start-up and configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to port 3000, host 0.0.0.0 and ./data', () => {
    const config = readConfig({});
    expect(config.port).to.equal(3000);
    expect(config.host).to.equal('0.0.0.0');
    expect(config.dataDir).to.equal(join(process.cwd(), 'data'));
  });

  it('refuses a bad PORT', () => {
    expect(() => readConfig({ PORT: 'abc' })).to.throw(/PORT/);
  });

  it('refuses the bundled example seed in production', async () => {
    const config = readConfig({ NODE_ENV: 'production', DATASPACE_DATA_DIR: dir });
    let error: unknown;
    try {
      await createNode(config, silent);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(SeedError);
    expect((error as Error).message).to.contain('DATASPACE_SEED');
  });

  it('loads the example seed when no seed is given, outside production', async () => {
    const node = await createNode(readConfig({ DATASPACE_DATA_DIR: dir }), silent);
    expect(node.registry.organisation('did:web:forwarder.example')?.role).to.equal('freightForwarder');
    await node.close();
  });

  const malformed: [string, unknown, RegExp][] = [
    ['a bad role', { organisations: [{ id: 'did:web:a.example', name: 'A', role: 'pirate' }] }, /organisations\[0\]\.role/],
    ['a bad DID', { organisations: [{ id: 'http://a.example', name: 'A', role: 'freightForwarder' }] }, /organisations\[0\]\.id/],
    [
      'a user of an unknown organisation',
      { organisations: [], users: [{ email: 'a@b.example', password: 'x', organisation: 'did:web:x.example' }] },
      /users\[0\]\.organisation/,
    ],
    [
      'a policy with a bad country',
      {
        organisations: [{ id: 'did:web:f.example', name: 'F', role: 'freightForwarder' }],
        policies: [{ owner: 'did:web:f.example', role: 'borderAgency', countries: ['Britain'] }],
      },
      /policies\[0\]\.countries\[0\]/,
    ],
    [
      'a user with both a password and a passwordHash',
      {
        organisations: [{ id: 'did:web:f.example', name: 'F', role: 'freightForwarder' }],
        users: [{ email: 'a@f.example', password: 'x', passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA', organisation: 'did:web:f.example' }],
      },
      /users\[0\] needs exactly one of password and passwordHash/,
    ],
    [
      'a passwordHash that is not scrypt',
      {
        organisations: [{ id: 'did:web:f.example', name: 'F', role: 'freightForwarder' }],
        users: [{ email: 'a@f.example', passwordHash: 'md5:abc', organisation: 'did:web:f.example' }],
      },
      /users\[0\]\.passwordHash is malformed/,
    ],
    [
      'a notification URL that is not http(s)',
      {
        organisations: [{ id: 'did:web:b.example', name: 'B', role: 'borderAgency', country: 'GB', notificationUrl: 'ftp://b.example/x' }],
      },
      /organisations\[0\]\.notificationUrl/,
    ],
  ];
  for (const [name, seed, message] of malformed) {
    it(`stops with a message naming the entry for ${name}`, async () => {
      const path = join(dir, 'seed.json');
      writeFileSync(path, JSON.stringify(seed));
      let error: unknown;
      try {
        await createNode(readConfig({ DATASPACE_SEED: path, DATASPACE_DATA_DIR: dir }), silent);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(SeedError);
      expect((error as Error).message).to.match(message);
    });
  }

  it('keeps passwords only as scrypt hashes', async () => {
    const node = await TestNode.start({}, dir);
    await node.stop(false);
    const log = readdirSync(dir)
      .filter((f) => /^changes-\d+\.log$/.test(f))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    expect(log).to.contain('scrypt$');
    expect(log).to.not.contain(USERS.forwarder.password);
  });

  it('applies the seed idempotently and keeps data and tokens across restarts (secret kept in the data dir)', async () => {
    const env = { JWT_SECRET: '' };
    const first = await TestNode.start(env, dir);
    const token = await first.login('forwarder');
    const c = consignment();
    expect((await first.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    const quads = await quadCount(first);
    await first.stop(false);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').length).to.be.above(32);

    const second = await TestNode.start(env, dir);
    expect(await quadCount(second)).to.equal(quads);
    const res = await second.request('GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`, { token });
    expect(res.status).to.equal(200);
    expect(res.body.identifier).to.equal(c.identifier);
    await second.stop(false);
  });

  describe('a restart on a seed with clear-text passwords', () => {
    let seedPath: string;
    let seed: { users: { email: string; password?: string }[] };
    const login = (node: TestNode, password: string) =>
      node.request('POST', '/authentication/login', { body: { email: USERS.forwarder.email, password } });
    beforeEach(async () => {
      seedPath = join(dir, 'seed.json');
      seed = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as typeof seed;
      writeFileSync(seedPath, JSON.stringify(seed));
      await (await TestNode.start({ DATASPACE_SEED: seedPath }, dir)).stop(false);
    });

    it('writes nothing when the seed is the same', async () => {
      const logBytes = () =>
        readdirSync(dir)
          .filter((f) => /^changes-\d+\.log$/.test(f))
          .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
      const before = logBytes();
      const same = await TestNode.start({ DATASPACE_SEED: seedPath }, dir);
      expect((await login(same, USERS.forwarder.password)).status).to.equal(200);
      await same.stop(false);
      expect(logBytes(), 'bytes logged by a start on the same seed').to.equal(before);
    });

    it('checks a changed password before the first login', async () => {
      seed.users.find((u) => u.email === USERS.forwarder.email)!.password = 'a-new-forwarder-pass';
      writeFileSync(seedPath, JSON.stringify(seed));
      const changed = await TestNode.start({ DATASPACE_SEED: seedPath }, dir);
      // Asked at once: a login waits for the seed's password check and the new hash it writes.
      const [old, renewed] = await Promise.all([login(changed, USERS.forwarder.password), login(changed, 'a-new-forwarder-pass')]);
      expect([old.status, renewed.status]).to.deep.equal([401, 200]);
      await changed.stop(false);
      const again = await TestNode.start({ DATASPACE_SEED: seedPath }, dir);
      expect((await login(again, 'a-new-forwarder-pass')).status).to.equal(200);
      await again.stop(false);
    });
  });

  it('decides on consignments published before a restart as on those published since', async () => {
    const first = await TestNode.start({}, dir);
    const c = consignment();
    expect((await first.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    await first.stop(false);

    const second = await TestNode.start({}, dir);
    const duplicate = await second.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: c.identifier })));
    expect(duplicate.body.tasks[0].error.name).to.equal('Conflict');
    const again = await second.publish('forwarder', activity('Create', USERS.forwarder.org, { ...c, identifier: 'FRESH-1' }));
    expect(again.body.tasks[0].error.name).to.equal('Conflict');
    // An Update that renames the consignment frees its old identifier and takes the new one.
    const renamed = await second.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, identifier: 'RENAMED-1' }));
    expect(renamed.body.status).to.equal('completed');
    expect(
      (await second.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: c.identifier })))).body.status,
    ).to.equal('completed');
    const taken = await second.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'RENAMED-1' })));
    expect(taken.body.tasks[0].error.name).to.equal('Conflict');
    await second.stop(false);
  });

  it('uses the seed path it is given', () => {
    expect(readConfig({ DATASPACE_SEED: TEST_SEED }).seedPath).to.equal(TEST_SEED);
  });
});
