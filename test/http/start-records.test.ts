import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { readRecords } from '../../src/catalog/records.js';
import { QueryBank } from '../../src/queries/query-bank.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { TestNode, USERS } from '../helpers/test-node.js';

const queries = new QueryBank();
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

/**
 * Every record's svc:startRecord literal and every record read the long way (nine fields joined),
 * sorted alike. The literal holds the times as the embedded store writes them back, where it is read
 * instead of the long way; a SPARQL server (which never reads it) may write them in another form of
 * the same instant, so there the times are compared as instants.
 */
async function bothReads(node: TestNode): Promise<{ literals: string[]; joined: string[] }> {
  const instants = node.node.store.rowCap === undefined
    ? (fields: string[]) => fields
    : (fields: string[]) => fields.map((field, i) => (i === 6 || i === 7 ? new Date(field).toISOString() : field));
  const literals = (await node.node.store.select(queries.text('ingest/consignment-start-records'))).map((row) => instants(row.get('record')!.value.split(' ')).join(' '));
  // A row cap forces the paged read of the nine fields, whatever the store.
  const joined = (await readRecords(node.node.store, queries, 10_000)).records.map((r) => instants([
    String(r.seq), r.consignment, r.owner, encodeURIComponent(r.identifier), encodeURIComponent(r.globalId), r.stateGraph, r.created, r.updated, encodeURIComponent(r.status),
  ]).join(' '));
  return { literals: literals.sort(), joined: joined.sort() };
}

/**
 * The record literal a start reads (svc:startRecord, catalog/records.ts) is written in the commit of
 * every accepted activity: after a Create, an Update that renames, an event that moves the status, a
 * document, and a refused activity, it says exactly what the nine fields say, and a restart reads
 * the node's records from it.
 */
describe('records at start: one literal a record, kept in step by every activity', function () {
  this.timeout(60_000);
  let node: TestNode;
  let dir: string;
  before(async () => { node = await TestNode.start(); dir = node.config.dataDir; });
  after(async () => { await node.stop(); rmSync(dir, { recursive: true, force: true }); });

  it('matches the joined fields after every kind of activity, and a restart finds the records by it', async () => {
    const a = consignment({ identifier: 'REF 1 % "é"' });
    const b = consignment();
    for (const c of [a, b]) expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...a, identifier: 'REF 1 renamed' }))).body.status).to.equal('completed');
    expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(b)))).body.status).to.equal('completed');
    const added = await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-1'), target({ ...a, identifier: 'REF 1 renamed' })));
    expect(added.body.status, added.text).to.equal('completed');
    // Refused: the identifier is taken. Nothing about the records changes.
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 renamed' })))).body.status).to.equal('failed');
    const { literals, joined } = await bothReads(node);
    expect(literals).to.deep.equal(joined).and.to.have.length(2);
    expect(literals.join('\n')).to.contain('REF%201%20renamed').and.to.contain(' despatched');

    await node.stop(false);
    node = await TestNode.start({}, dir);
    // The write path found the renamed record, and the old identifier free.
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 renamed' })))).body.status).to.equal('failed');
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment({ identifier: 'REF 1 % "é"' })))).body.status).to.equal('completed');
    const view = await node.as('forwarder', 'GET', consignmentPath(b.globalId as string));
    expect(view.body.status).to.equal('despatched');
    const after = await bothReads(node);
    expect(after.literals).to.deep.equal(after.joined).and.to.have.length(3);
  });
});
