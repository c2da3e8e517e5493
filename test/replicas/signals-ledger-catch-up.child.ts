import { expect } from 'chai';
import pg from 'pg';
import { replicaDatabaseUrl } from '../helpers/external-store.js';
import { activity, consignment } from '../helpers/payloads.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';
import { TestNode, USERS } from '../helpers/test-node.js';

const ENDPOINT = '/supply-chain/data-space/notification-endpoint';
const SIGNALS = '/supply-chain/data-space/signals';

/**
 * On a replica set the receivers' ledger is in PostgreSQL and is told of a delivery after its commit
 * to the SPARQL server: a writer that died in between leaves deliveries in the outbox that the ledger
 * lacks. Those rows are taken out of PostgreSQL here, as such a writer leaves them, and the next writer
 * must list them again. (On a single node the ledger is in memory and read whole from the outbox at
 * every start: signals-received.test.ts lists the same after a restart.) A child file, not in the
 * suite's own spec: replica-http.test.ts runs it with every TestNode a replica set's writer.
 */
describe('signals: a replica set lists the deliveries a dead writer did not enter in the ledger', function () {
  this.timeout(120_000);
  let node: TestNode;
  let receiver: SignalReceiver;
  let db: pg.Client;
  const sent: string[] = [];

  const listed = async (): Promise<string[]> => {
    const res = await node.as('border', 'GET', SIGNALS);
    expect(res.status, res.text).to.equal(200);
    return res.body.map((s: { globalId: string; type: string }) => `${s.type} ${s.globalId}`);
  };
  const restart = async () => {
    await db.end();
    await node.stop(false);
    node = await TestNode.start({}, node.config.dataDir);
    db = new pg.Client({ connectionString: replicaDatabaseUrl(node.config.dataDir) });
    await db.connect();
  };

  before(async function () {
    if (!process.env.DATASPACE_TEST_DATABASE_URL) throw new Error('run by test/replicas/replica-http.test.ts, on a replica set');
    node = await TestNode.start();
    receiver = await SignalReceiver.start();
    expect((await node.as('border', 'PUT', ENDPOINT, { url: receiver.url, secret: testSecret('catch-up') })).status).to.equal(200);
    for (let i = 0; i < 4; i++) {
      const c = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
      sent.push(`PreNotification ${c.globalId}`);
    }
    sent.reverse();
    db = new pg.Client({ connectionString: replicaDatabaseUrl(node.config.dataDir) });
    await db.connect();
  });
  after(async () => {
    await db?.end();
    await node?.stop();
    await receiver?.close();
  });

  it('lists from PostgreSQL what it was told, then after a restart also what it was not', async () => {
    expect(await listed()).to.deep.equal(sent);
    const { rows } = await db.query<{ seq: string }>('SELECT seq FROM dataspace_ledger WHERE receiver = $1 ORDER BY seq', [
      USERS.border.org,
    ]);
    expect(rows).to.have.length(4);
    // The newest, and one below a delivery that stays: a catch-up from the highest seq held would miss it.
    const lost = [rows[1]!.seq, rows[3]!.seq];
    await db.query('DELETE FROM dataspace_ledger WHERE seq = ANY($1::bigint[])', [lost]);
    expect(await listed()).to.deep.equal([sent[1], sent[3]]);

    await restart();
    expect(await listed()).to.deep.equal(sent);
  });

  it("reads every delivery on a replica set's first start on a data space that has some", async () => {
    await db.query('DELETE FROM dataspace_ledger');
    await db.query('DELETE FROM dataspace_ledger_mark');
    expect(await listed()).to.deep.equal([]);

    await restart();
    expect(await listed()).to.deep.equal(sent);
    const page = await node.as('border', 'GET', `${SIGNALS}?limit=3`);
    expect(page.body.map((s: { globalId: string; type: string }) => `${s.type} ${s.globalId}`)).to.deep.equal(sent.slice(0, 3));
    expect(page.headers.get('link')).to.match(/rel="next"/);
  });
});
