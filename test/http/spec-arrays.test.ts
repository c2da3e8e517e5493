import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;
type Json = Record<string, any>;
const sub = (identifier: string) => ({ type: 'Consignment', identifier, summaryDescription: `part ${identifier}` });
const equipment = (identifier: string) => ({
  type: 'LogisticsTransportEquipment',
  identifier,
  specifiedTransportMeans: [{ type: 'LogisticsTransportMeans', transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#3103' }],
});

describe('spec fidelity: arrays keep their JSON shape and order (spec 2.4, 2.9)', () => {
  // The first node makes (and, on an external store, clears) the data; the restart reuses its dir.
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
  const view = async (c: Json) => (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;

  it('gives one-item arrays back as arrays, and the positions never show in the view', async () => {
    const c = consignment({
      weightUnitNetWeightMeasure: [{ 'unece:WeightUnitMeasureTypeValue': '120', 'unece:WeightUnitMeasureTypeCode': 'KGM' }],
      includedConsignment: [sub('A')],
    });
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const v = await view(c);
    expect(v.weightUnitNetWeightMeasure).to.be.an('array').with.length(1);
    expect(v.includedConsignmentItem).to.be.an('array').with.length(1);
    expect(v.utilizedTransportEquipment).to.be.an('array').with.length(1);
    // Sent as an object (consignment() does), it stays an object; sent as a one-item array, an array.
    expect(v.utilizedTransportEquipment[0].specifiedTransportMeans).to.be.an('object').and.not.an('array');
    const e = consignment({ utilizedTransportEquipment: [equipment('EQ')] });
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, e));
    expect((await view(e)).utilizedTransportEquipment[0].specifiedTransportMeans)
      .to.be.an('array')
      .with.length(1);
    expect(v.includedConsignments.map((x: Json) => x.identifier)).to.deep.equal(['A']);
    expect(JSON.stringify(v)).to.not.contain('position');
    // A field sent as a single object stays an object.
    expect(v.consignor).to.be.an('object');
  });

  it('keeps the order sent across reads, Updates (the complete list reads back in the order sent) and a restart, and SPARQL can sort on svc:position', async () => {
    const order = ['K', 'B', 'Z', 'A', 'M', 'C'];
    const c = consignment({ includedConsignment: order.map(sub), utilizedTransportEquipment: ['EQ9', 'EQ1', 'EQ5'].map(equipment) });
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    for (let i = 0; i < 3; i++) {
      const v = await view(c);
      expect(v.includedConsignments.map((x: Json) => x.identifier)).to.deep.equal(order);
      expect(v.utilizedTransportEquipment.map((x: Json) => x.identifier)).to.deep.equal(['EQ9', 'EQ1', 'EQ5']);
    }
    // Sent in another order, without B, with two new ones: the complete list is the order (issue 47).
    const expected = ['NEW2', 'A', 'K', 'NEW1', 'Z', 'M', 'C'];
    const update = { ...c, includedConsignment: expected.map(sub) };
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, update))).body.status).to.equal('completed');
    expect((await view(c)).includedConsignments.map((x: Json) => x.identifier)).to.deep.equal(expected);
    await node.stop(false);
    node = await TestNode.start({}, dir);
    expect((await view(c)).includedConsignments.map((x: Json) => x.identifier)).to.deep.equal(expected);
    const rows = await node.node.store
      .select(`PREFIX unece: <https://vocabulary.uncefact.org/> PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
      SELECT ?id WHERE { GRAPH ?g { ?c unece:globalId "${c.globalId}" ; unece:includedConsignment ?i . ?i unece:identifier ?id ; svc:position ?n } } ORDER BY ?n`);
    expect(rows.map((r) => r.get('id')!.value)).to.deep.equal(expected);
  });
});
