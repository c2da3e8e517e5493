import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, event, newGlobalId, target, type Json } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { logIn, USERS } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const INBOX = '/supply-chain/data-space/inbox';
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;

/** The text of every SPARQL request a node logged (DATASPACE_LOG=debug), in order. */
function sparqlRequests(output: string): string[] {
  const texts: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const fields = JSON.parse(line) as { msg?: string; text?: string };
    if (fields.msg === 'sparql request' && fields.text !== undefined) texts.push(fields.text);
  }
  return texts;
}

/**
 * Spec 2.1 retries on a replica set: the activity ids applied are kept in PostgreSQL, claimed before
 * each commit (src/adapters/postgres/postgres-activity-ids.ts), so a writer
 * that takes over from one that died answers a retry of an activity it never saw with the original
 * entry, and refuses its id with another payload, without having read any id at start.
 */
describe('replicas: a retried activity answered by a writer that never saw it', function () {
  this.timeout(180_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let databaseUrl: string;
  const replicas: NodeProcess[] = [];

  const startReplica = (): Promise<NodeProcess> =>
    NodeProcess.start({
      ...virtuoso.env(),
      DATABASE_URL: databaseUrl,
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-replica-ids-'), 'data'),
      DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
      DATASPACE_READER_THREADS: '1',
      DATASPACE_REPLICA_CHECK_MS: '200',
      DATASPACE_REPLICA_TAKEOVER_MS: '0',
      // Every SPARQL request's text: what the second writer asks the store, and when.
      DATASPACE_LOG: 'debug',
    });

  const send = async (node: NodeProcess, body: unknown) => {
    const res = await fetch(`${node.url}${INBOX}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await logIn(node.url, 'forwarder')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  before(async function () {
    if (postgresMissing() ?? virtuosoMissing()) this.skip(); // reason: no PostgreSQL or Virtuoso here; .ci/run installs both
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
    databaseUrl = await postgres.database('dataspace');
  });
  after(async () => {
    await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
    await Promise.all([virtuoso?.stop(), postgres?.stop()]);
  });

  it('answers the retry with the original entry and the same id with another payload with 409, nothing applied twice', async () => {
    const first = await startReplica();
    replicas.push(first);
    await first.untilRole('writer');
    const c = consignment();
    expect((await send(first, activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    const id = `urn:uuid:${newGlobalId().slice(9)}`;
    const despatch = { ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)), id };
    const original = await send(first, despatch);
    expect(original.status).to.equal(201);
    expect(original.body.status).to.equal('completed');

    // The second replica follows, then takes over from the first, killed: it never applied the Add.
    const second = await startReplica();
    replicas.push(second);
    await second.untilRole('follower');
    await first.kill('SIGKILL');
    await second.untilRole('writer');
    const atStart = sparqlRequests(second.output);
    expect(atStart.length, 'the debug log has the start-up requests').to.be.greaterThan(0);
    expect(
      atStart.filter((text) => text.includes('activityId')),
      'no activity id is read at start',
    ).to.deep.equal([]);

    const retry = await send(second, despatch);
    expect(retry.status).to.equal(201);
    expect(retry.body).to.deep.equal(original.body);
    // The id is looked up in PostgreSQL (dataspace_activity_id), where the first writer claimed it before its commit.
    expect(
      sparqlRequests(second.output).filter((text) => text.includes('svc:activityId')),
      'no lookup of the id in the store',
    ).to.deep.equal([]);
    const [row] = await asPostgres(databaseUrl, 'SELECT entry FROM dataspace_activity_id WHERE actor = $1', [USERS.forwarder.org]);
    expect(row?.entry).to.equal(original.body.id);

    const other = { ...despatch, object: event('svc:arrivedAtFinalDestination') };
    const conflict = await send(second, other);
    expect(conflict.status).to.equal(409);
    expect(conflict.body).to.deep.equal({ name: 'Conflict', message: conflict.body.message });
    expect(conflict.body.message).to.contain(id).and.contain(original.body.id);

    // A new id of the second writer's own is applied, and its retry answered from what it keeps.
    const arrival = { ...other, id: `urn:uuid:${newGlobalId().slice(9)}` };
    const applied = await send(second, arrival);
    expect(applied.body.status).to.equal('completed');
    expect((await send(second, arrival)).body).to.deep.equal(applied.body);
    expect(
      sparqlRequests(second.output).filter((text) => text.includes('svc:activityId')),
      'a retry right after needs no lookup in the store',
    ).to.deep.equal([]);

    const res = await fetch(`${second.url}${view(c.globalId as string)}`, {
      headers: { authorization: `Bearer ${await logIn(second.url, 'forwarder')}` },
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).to.equal(200);
    expect((body.events as Json[]).map((e) => e.typeCode)).to.deep.equal(['svc:despatched', 'svc:arrivedAtFinalDestination']);
  });
});
