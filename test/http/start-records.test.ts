import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { readRecords } from '../../src/core/catalog/records.js';
import { QueryBank } from '../../src/core/queries/query-bank.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { firstOf, nth } from '../helpers/present.js';

const queries = new QueryBank();
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

/**
 * Every record's svc:startRecord literal and every record read the long way (nine fields joined, and
 * its svc:routeLocation values as the route field), sorted alike. The literal holds the times as the
 * embedded store writes them back, where it is read instead of the long way; a SPARQL server (which
 * never reads it) may write them in another form of the same instant, so there the times are compared
 * as instants. The route's locations are a set: compared sorted.
 */
async function bothReads(node: TestNode): Promise<{ literals: string[]; joined: string[] }> {
  const instants =
    node.node.store.rowCap === undefined
      ? (fields: string[]) => fields
      : (fields: string[]) => fields.map((field, i) => (i === 6 || i === 7 ? new Date(field).toISOString() : field));
  const route = (locations: string[]) => `r:${locations.map(encodeURIComponent).sort().join(',')}`;
  const literals = (await node.node.store.select(queries.text('ingest/consignment-start-records'))).map((row) => {
    const fields = row.get('record')!.value.split(' ');
    expect(fields, 'nine fields and the route').to.have.length(10);
    const written = nth(fields, 9).slice('r:'.length);
    return instants([...fields.slice(0, 9), route(written === '' ? [] : written.split(',').map(decodeURIComponent))]).join(' ');
  });
  const locations = new Map<string, string[]>();
  for (const row of await node.node.store.select(queries.text('policy/route-locations'))) {
    const [consignment, location] = firstOf(row.get('route')!.value.split(' '), 2);
    locations.set(consignment, [...(locations.get(consignment) ?? []), decodeURIComponent(location)]);
  }
  // A row cap forces the paged read of the nine fields, whatever the store.
  const joined = (await readRecords(node.node.store, queries, 10_000)).records.map((r) =>
    instants([
      String(r.seq),
      r.consignment,
      r.owner,
      encodeURIComponent(r.identifier),
      encodeURIComponent(r.globalId),
      r.stateGraph,
      r.created,
      r.updated,
      encodeURIComponent(r.status),
      route(locations.get(r.consignment) ?? []),
    ]).join(' '),
  );
  return { literals: literals.sort(), joined: joined.sort() };
}

/**
 * The record literal a start reads (svc:startRecord, core/catalog/records.ts) is written in the commit of
 * every accepted activity: after a Create, an Update that renames and reroutes, an event that moves
 * the status, a document, and a refused activity, it says exactly what the nine fields and the route
 * locations say, and a restart reads the node's records and the read index's routes from it.
 */
describe('records at start: one literal a record, kept in step by every activity', function () {
  this.timeout(60_000);
  let node: TestNode;
  let dir: string;
  before(async () => {
    node = await TestNode.start();
    dir = node.config.dataDir;
  });
  after(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('matches the joined fields after every kind of activity, and a restart finds the records by it', async () => {
    const a = consignment({ identifier: 'REF 1 % "é"' });
    const b = consignment();
    for (const c of [a, b])
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const rerouted = {
      ...a,
      identifier: 'REF 1 renamed',
      unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Antwerp', UNLocode: 'BEANR' },
    };
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, rerouted))).body.status).to.equal('completed');
    expect(
      (await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(b)))).body.status,
    ).to.equal('completed');
    const added = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('INV-1'), target({ ...a, identifier: 'REF 1 renamed' })),
    );
    expect(added.body.status, added.text).to.equal('completed');
    // Refused: the identifier is taken. Nothing about the records changes.
    expect(
      (await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 renamed' })))).body.status,
    ).to.equal('failed');
    expect(
      (await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'locationOperator', locations: ['NLRTM'] })).status,
    ).to.equal(201);
    const { literals, joined } = await bothReads(node);
    expect(literals).to.deep.equal(joined).and.to.have.length(2);
    expect(literals.join('\n')).to.contain('REF%201%20renamed').and.to.contain(' despatched');
    expect(literals.find((l) => l.includes('renamed'))).to.match(/ r:BEANR,GBFXT$/);
    expect(literals.find((l) => l.includes('despatched'))).to.match(/ r:GBFXT,NLRTM$/);

    await node.stop(false);
    node = await TestNode.start({}, dir);
    // The write path found the renamed record, and the old identifier free.
    expect(
      (await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 renamed' })))).body.status,
    ).to.equal('failed');
    expect(
      (await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 % "é"' })))).body.status,
    ).to.equal('completed');
    const view = await node.as('forwarder', 'GET', consignmentPath(b.globalId as string));
    expect(view.body.status).to.equal('despatched');
    // The read index's routes came from the literals: Rotterdam's list has b, routed through it, and
    // not a, which the Update routed away.
    const listed = await node.as('rotterdam', 'GET', '/supply-chain/data-space/consignments?limit=500');
    expect((listed.body as { globalId: string }[]).map((c) => c.globalId))
      .to.include(b.globalId)
      .and.not.include(a.globalId);
    const after = await bothReads(node);
    expect(after.literals).to.deep.equal(after.joined).and.to.have.length(3);
  });
});
