import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, newGlobalId, target } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
const VALIDATE = '/supply-chain/data-space/validate';
type Json = Record<string, any>;

async function quadCount(node: TestNode): Promise<number> {
  const row = nth(await node.node.store.select('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }'), 0);
  return Number(row.get('n')!.value);
}

describe('spec fidelity: code-list forms accepted alike for every code list (issue 35)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const withMode = (transportModeCode: string) =>
    consignment({ mainCarriageTransportMovement: { type: 'TransportMovement', transportModeCode } });

  it('takes transportModeCode as "3", as unece:TransportModeCodeList#3 and as the expanded IRI, stored and read alike', async () => {
    const forms = ['3', 'unece:TransportModeCodeList#3', 'https://vocabulary.uncefact.org/TransportModeCodeList#3'];
    const sent = forms.map(withMode);
    const answers = [];
    for (const c of sent) answers.push(await node.publish('forwarder', activity('Create', USERS.forwarder.org, c)));
    for (const [i, res] of answers.entries()) expect(res.body.status, `${forms[i]}: ${res.text}`).to.equal('completed');
    // Only the bare form is told as a warning, naming the form to send.
    expect(answers.map((r) => (r.body.warnings ?? []).map((w: Json) => w.value))).to.deep.equal([['3'], [], []]);
    for (const c of sent) {
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.mainCarriageTransportMovement.transportModeCode).to.equal('unece:TransportModeCodeList#3');
      expect(view.resolvedTransportMode).to.deep.equal({ raw: 'unece:TransportModeCodeList#3', code: '3', label: 'Road transport' });
    }
    const refused = await node.publish('forwarder', activity('Create', USERS.forwarder.org, withMode('12')));
    expect(refused.status).to.equal(422);
    expect(refused.text).to.contain('12');
  });

  it('takes a bare code in the other code fields too: document, transport means type, equipment category', async () => {
    const c = consignment({
      utilizedTransportEquipment: [
        {
          type: 'LogisticsTransportEquipment',
          identifier: 'MSKU1',
          transportEquipmentCategoryCode: 'CN',
          specifiedTransportMeans: { type: 'LogisticsTransportMeans', transportMeansTypeCode: '1512' },
        },
      ],
    });
    const created = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(created.body.status, created.text).to.equal('completed');
    expect(created.body.warnings.map((w: Json) => w.value).sort()).to.deep.equal(['1512', 'CN']);
    const doc = await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('INV-1', { documentTypeCode: '380' }), target(c)),
    );
    expect(doc.body.status, doc.text).to.equal('completed');
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.resolvedTransportEquipment[0].transportMeansTypes[0]).to.include({ code: '1512' });
    expect(view.documents[0]).to.include({ documentCode: '380', documentType: 'Commercial invoice' });
    // Stored as the IRI (the field is @vocab in D23B), as unece:TransportMeansTypeCodeList#1512 would be.
    const rows = await node.node.store.select(
      'SELECT ?o WHERE { GRAPH ?g { ?s <https://vocabulary.uncefact.org/transportMeansTypeCode> ?o } }',
    );
    expect(rows.map((r) => `${r.get('o')!.termType} ${r.get('o')!.value}`).filter((t) => t.includes('1512'))).to.deep.equal([
      'NamedNode https://vocabulary.uncefact.org/TransportMeansTypeCodeList#1512',
    ]);
    const report = await node.as('forwarder', 'POST', VALIDATE, withMode('3'));
    expect(report.body.conforms).to.equal(true);
    expect(report.body.results).to.have.length(1);
    expect(report.body.results[0]).to.include({ severity: 'Warning', sourceShape: 'dsh:CodeForm', value: '3' });
  });
});

describe('spec fidelity: includedConsignment identifiers are unique (issue 35)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const item = (identifier: string, summaryDescription = identifier) => ({ type: 'Consignment', identifier, summaryDescription });

  it('refuses a Create or an Update sending one identifier twice with 422 naming it, storing nothing', async () => {
    const twice = [item('ITEM-1'), item('ITEM-2'), item('ITEM-1', 'again')];
    const c = consignment({ includedConsignment: twice });
    const before = await quadCount(node);
    const create = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(create.status).to.equal(422);
    expect(create.body.name).to.equal('GeneralError');
    expect(create.body.message).to.contain('"ITEM-1"');
    expect(create.body.properties.results).to.have.length(1);
    expect(create.body.properties.results[0]).to.include({ path: 'includedConsignment[2].identifier', value: 'ITEM-1' });
    expect(await quadCount(node)).to.equal(before);

    const ok = consignment({ includedConsignment: [item('ITEM-1'), item('ITEM-2')] });
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, ok));
    const update = await node.publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, {
        ...ok,
        includedConsignment: [item('ITEM-2'), { ...item('ITEM-2', 'other'), identifier: { '@value': 'ITEM-2' } }],
      }),
    );
    expect(update.status).to.equal(422);
    expect(update.body.properties.results[0]).to.include({ path: 'includedConsignment[1].identifier', value: 'ITEM-2' });
    const view = (await node.as('forwarder', 'GET', consignmentPath(ok.globalId))).body;
    expect(view.includedConsignments.map((i: Json) => i.identifier)).to.deep.equal(['ITEM-1', 'ITEM-2']);
    const report = await node.as('forwarder', 'POST', VALIDATE, c);
    expect(report.body.conforms).to.equal(false);
    expect(report.body.results.map((r: Json) => r.path)).to.include('includedConsignment[2].identifier');
  });
});

describe('spec fidelity: an activity id reused with another payload (issue 35)', () => {
  let dir: string;
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
    dir = node.config.dataDir;
  });
  after(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 409 Conflict, applying nothing; the same payload (keys reordered, nulls added) still replays, also after a restart', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const id = `urn:uuid:${newGlobalId().slice(9)}`;
    const despatch = { ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)), id };
    const first = await node.publish('forwarder', despatch);
    expect(first.body.status).to.equal('completed');
    const before = await quadCount(node);

    const other = { ...despatch, object: event('svc:arrivedAtFinalDestination') };
    const conflict = await node.publish('forwarder', other);
    expect(conflict.status).to.equal(409);
    expect(conflict.body).to.deep.equal({ name: 'Conflict', message: conflict.body.message });
    expect(conflict.body.message).to.contain(id).and.contain(first.body.id);
    expect(await quadCount(node)).to.equal(before);

    const reordered = Object.fromEntries(Object.entries({ ...despatch, summary: null }).reverse());
    expect((await node.publish('forwarder', reordered)).body).to.deep.equal(first.body);

    await node.stop(false);
    node = await TestNode.start({}, dir);
    expect((await node.publish('forwarder', other)).status).to.equal(409);
    expect((await node.publish('forwarder', despatch)).body).to.deep.equal(first.body);
    const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
    expect(view.events.map((e: Json) => e.typeCode)).to.deep.equal(['svc:despatched']);
  });
});
