import { expect } from 'chai';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { NodeProcess } from '../helpers/node-process.js';
import { activity, consignment, document, target, type Json } from '../helpers/payloads.js';
import { asPostgres, Postgres, postgresMissing } from '../helpers/postgres.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { logIn, USERS, type UserName } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

const BASE = '/supply-chain/data-space';

/**
 * The consignment catalog and the change feed's index a replica set keeps in PostgreSQL, brought
 * level with the store by the writer before it takes a write: filled from a data space a single node wrote on the same SPARQL
 * server, then caught up on the writes a writer committed to the store but died before telling the
 * catalog (the state left is made here in PostgreSQL, as a kill between the two commits leaves it).
 */
describe('replicas: the consignment catalog filled from the store and caught up after a writer died', function () {
  this.timeout(180_000);
  let postgres: Postgres;
  let virtuoso: Virtuoso;
  let databaseUrl: string;
  let node: NodeProcess | undefined;

  const sql = (text: string, values: unknown[] = []) => asPostgres(databaseUrl, text, values);

  /** A node on the shared Virtuoso: a replica when `replica`, else a single node of its own data dir. */
  const start = async (replica: boolean): Promise<NodeProcess> => {
    await node?.kill('SIGKILL');
    node = await NodeProcess.start({
      ...virtuoso.env(),
      ...(replica ? { DATABASE_URL: databaseUrl, DATASPACE_REPLICA_TAKEOVER_MS: '0' } : {}),
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-catalog-'), 'data'),
      DATASPACE_SEED: join(projectRoot, 'test', 'fixtures', 'seed.json'),
      DATASPACE_READER_THREADS: '1',
      JWT_SECRET: 'catalog-catch-up-test-secret-of-enough-length',
    });
    await node.until(200);
    // A replica serves as a follower first (answering 200 too), until it holds the writer lease.
    if (replica) await node.untilRole('writer');
    return node;
  };

  const call = async (user: UserName, method: string, path: string, body?: unknown) => {
    const token = await logIn(node!.url, user);
    const res = await fetch(`${node!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json & Json[] };
  };
  const publish = async (a: Json) => (await call('forwarder', 'POST', `${BASE}/inbox`, a)).body;
  /** Every consignment the user lists, in list order, following rel="next" at pages of 3. */
  const listed = async (user: UserName): Promise<string[]> => {
    const token = await logIn(node!.url, user);
    const all: string[] = [];
    for (let next: string | undefined = `${BASE}/consignments?limit=3`; next;) {
      const res: Response = await fetch(`${node!.url}${next}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as Json[];
      expect(res.status, JSON.stringify(body)).to.equal(200);
      all.push(...body.map((c) => c.globalId as string));
      next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
    }
    return all;
  };

  /** The user's change feed from its start, as [change, globalId]: every page until one comes back empty and whole. */
  const feed = async (user: UserName): Promise<string[][]> => {
    const token = await logIn(node!.url, user);
    const get = async (path: string) => {
      const res = await fetch(new URL(path, node!.url), { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).to.equal(200);
      return (await res.json()) as Json;
    };
    const items: string[][] = [];
    for (let page = await get((await get(`${BASE}/changes`)).first as string); ; page = await get(page.next as string)) {
      items.push(...(page.orderedItems as Json[]).map((i) => [i.change as string, i.object.id as string]));
      if ((page.orderedItems as Json[]).length === 0 && !page.partial) return items;
    }
  };

  before(async function () {
    if (postgresMissing() ?? virtuosoMissing()) this.skip(); // reason: no PostgreSQL or Virtuoso here; .ci/run installs both
    [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start()]);
    databaseUrl = await postgres.database('dataspace');
  });
  after(async () => {
    await node?.kill('SIGKILL');
    await Promise.all([virtuoso?.stop(), postgres?.stop()]);
  });

  it('lists, finds and refuses on a replica exactly what the single node before it wrote, then what a dead writer left out', async () => {
    await start(false);
    const policy = await call('forwarder', 'POST', `${BASE}/policies`, { role: 'locationOperator', locations: ['NLRTM'] });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    const created: Json[] = [];
    for (let i = 0; i < 10; i++) {
      // Every other one not through Rotterdam: the location operator's list is a part of the whole.
      const c = consignment(
        i % 2 === 0 ? {} : { unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Antwerp', UNLocode: 'BEANR' } },
      );
      // One sent with a root id beside its globalId (pilot E): its URL answers to it on the replica set too.
      if (i === 2) c.id = `urn:ucr:24PLP${c.globalId.slice(-12)}`;
      expect((await publish(activity('Create', USERS.forwarder.org, c))).status).to.equal('completed');
      created.push(c);
    }
    expect((await publish(activity('Add', USERS.forwarder.org, document('INV-C'), target(created[3]!)))).status).to.equal('completed');
    const before = { all: await listed('forwarder'), rotterdam: await listed('rotterdam'), feed: await feed('rotterdam') };
    expect(before.all).to.have.length(10);
    expect(before.rotterdam).to.have.length(5);

    // The replica set's first writer fills its empty catalog from the store.
    await start(true);
    expect(await listed('forwarder')).to.deep.equal(before.all);
    expect(await listed('rotterdam')).to.deep.equal(before.rotterdam);
    expect(await feed('rotterdam'), "the change feed's index is filled from the journal").to.deep.equal(before.feed);
    expect(before.feed, "the operator's feed: the consignments routed through its port").to.have.length(5);
    expect(Number((await sql('SELECT count(*) AS n FROM dataspace_consignment'))[0]!.n)).to.equal(10);
    const documents = await call('forwarder', 'GET', `${BASE}/documents`);
    expect(documents.body.map((d: Json) => [d.documentId, d.consignmentId])).to.deep.equal([['INV-C', created[3]!.globalId]]);
    const again = await publish(activity('Create', USERS.forwarder.org, consignment({ identifier: created[0]!.identifier })));
    expect(again.tasks[0].error.name, 'an identifier the single node stored is taken').to.equal('Conflict');
    const bySentId = await call('forwarder', 'GET', `${BASE}/consignments/${encodeURIComponent(created[2]!.id)}`);
    expect(bySentId.body.globalId, 'the id sent beside the globalId is filled from the store').to.equal(created[2]!.globalId);
    const sentAgain = await publish(activity('Create', USERS.forwarder.org, consignment({ id: created[2]!.id })));
    expect(sentAgain.tasks[0].error.name, 'a sent id the single node stored is taken').to.equal('Conflict');

    // Two Creates and an Update (a new identifier) the store has and the catalog is not told of: its
    // rows as they were before them, and its mark where it stood.
    const [mark] = await sql('SELECT applied_seq FROM dataspace_catalog');
    const lost = [consignment(), consignment()];
    lost[1]!.id = `urn:ucr:24PLP${lost[1]!.globalId.slice(-12)}`;
    for (const c of lost) expect((await publish(activity('Create', USERS.forwarder.org, c))).status).to.equal('completed');
    const renamed = { ...created[5]!, identifier: 'REF-RENAMED' };
    expect((await publish(activity('Update', USERS.forwarder.org, renamed))).status).to.equal('completed');
    await node!.kill('SIGKILL');
    await sql(
      'DELETE FROM dataspace_consignment_location WHERE iri IN (SELECT iri FROM dataspace_consignment WHERE global_id = ANY ($1))',
      [lost.map((c) => c.globalId)],
    );
    await sql('DELETE FROM dataspace_consignment WHERE global_id = ANY ($1)', [lost.map((c) => c.globalId)]);
    await sql(
      "UPDATE dataspace_consignment SET identifier = $2, record = jsonb_set(record, '{identifier}', to_jsonb($2::text)) WHERE global_id = $1",
      [created[5]!.globalId, created[5]!.identifier],
    );
    await sql('UPDATE dataspace_catalog SET applied_seq = $1', [mark!.applied_seq]);
    await sql('DELETE FROM dataspace_change WHERE seq > $1', [mark!.applied_seq]);
    await sql('DELETE FROM dataspace_change_track WHERE first_seq > $1', [mark!.applied_seq]);

    // The next writer reads the journal after the mark: the lost writes are listed and found again.
    await start(true);
    expect(await listed('forwarder')).to.deep.equal([...before.all, ...lost.map((c) => c.globalId)]);
    const caughtUp = await feed('forwarder');
    expect(caughtUp.slice(-3), "the change feed's index caught up on the journal").to.deep.equal([
      ['consignment-created', lost[0]!.globalId],
      ['consignment-created', lost[1]!.globalId],
      ['consignment-updated', created[5]!.globalId],
    ]);
    const byNewIdentifier = await call('forwarder', 'GET', `${BASE}/consignments/REF-RENAMED`);
    expect(byNewIdentifier.status, JSON.stringify(byNewIdentifier.body)).to.equal(200);
    expect(byNewIdentifier.body.globalId).to.equal(created[5]!.globalId);
    const taken = await publish(activity('Create', USERS.forwarder.org, consignment({ identifier: lost[1]!.identifier })));
    expect(taken.tasks[0].error.name, "a lost Create's identifier is taken again").to.equal('Conflict');
    const lostBySentId = await call('forwarder', 'GET', `${BASE}/consignments/${encodeURIComponent(lost[1]!.id)}`);
    expect(lostBySentId.body.globalId, "a lost Create's sent id is caught up on").to.equal(lost[1]!.globalId);
    expect((await publish(activity('Create', USERS.forwarder.org, consignment({ identifier: created[5]!.identifier })))).status).to.equal(
      'completed',
    );
  });
});
