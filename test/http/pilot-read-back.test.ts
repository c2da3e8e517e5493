import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, D23B, newGlobalId, type Json } from '../helpers/payloads.js';
import { expectAsSent } from '../helpers/as-sent.js';
import { pilotA, pilotBDoublePrime, pilotBPrime, pilotBPrimeActivity, pilotE } from '../helpers/pilot-forms.js';

const view = (node: TestNode, globalId: string) =>
  node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`);
const EORI = 'https://ref.gs1.org/voc/OrganizationID_Type-EORI';

describe('pilot payloads read back as sent (issue 47)', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const createAndRead = async (object: Json): Promise<Json> => {
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, object));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status, res.text).to.equal('completed');
    const read = await view(node, object.globalId);
    expect(read.status, read.text).to.equal(200);
    return read.body;
  };

  const pilots: [string, () => Json][] = [
    ['A (DPI provider node)', pilotA],
    ['B′ (ISN Create, actor given its @context)', pilotBPrime],
    ['B″ (ISN ACME)', pilotBDoublePrime],
    ['E (TWIN test app)', pilotE],
  ];
  for (const [name, make] of pilots) {
    it(`pilot ${name}: the read view gives every field sent, key by key, its root id included`, async () => {
      const sent = make();
      const read = await createAndRead(sent);
      expectAsSent(read, sent);
      // The root id as sent where there is one (E's urn:ucr:…), else the globalId (docs/decisions.md).
      expect(read.id).to.equal(sent.id ?? sent.globalId);
    });
  }

  it('pilot A as sent (scheduledOccurrenceDateTime 2026-05-8T19:00:00Z) is refused 422 naming the field', async () => {
    const sent = pilotA();
    sent.atDepartureTransportMovement.departureEvent[0].scheduledOccurrenceDateTime = '2026-05-8T19:00:00Z';
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, sent));
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.contain('scheduledOccurrenceDateTime').and.contain('2026-05-8T19:00:00Z');
  });

  it("pilot A's packageQuantity type QuantityType (no class of D23B) is refused 422 naming it, not stored as a blank node", async () => {
    const sent = pilotA();
    sent.packageQuantity = { type: 'QuantityType', 'unece:QuantityTypeValue': 25 };
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, sent));
    expect(res.status, res.text).to.equal(422);
    expect(res.body.message).to.contain('QuantityType');
    expect((await view(node, sent.globalId)).status).to.equal(404);
  });

  it('pilot B′ as sent (actor without @context) is refused 400 naming actor.@context; with it the same object is accepted', async () => {
    const sent = pilotBPrimeActivity(USERS.forwarder.org);
    const refused = await node.publish('forwarder', sent);
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body).to.include({ name: 'BadRequest' });
    expect(refused.body.message).to.contain('actor.@context');
    const fixed = await node.publish('forwarder', { ...sent, actor: { '@context': D23B, ...sent.actor } });
    expect(fixed.status, fixed.text).to.equal(201);
    expectAsSent((await view(node, sent.object.globalId)).body, sent.object);
  });

  it('parties identified by EORI value objects read back under identifier / registeredId as value objects (issue row 2)', async () => {
    const sent: Json = {
      ...base(),
      exporterParty: { type: 'TradeParty', identifier: { '@type': EORI, '@value': 'GB555000111000' } },
      consigneeParty: { type: 'TradeParty', registeredId: { '@type': EORI, '@value': 'FR555000222000' } },
    };
    const read = await createAndRead(sent);
    expect(read.exporterParty.identifier).to.deep.equal({ '@type': EORI, '@value': 'GB555000111000' });
    expect(read.consigneeParty.registeredId).to.deep.equal({ '@type': EORI, '@value': 'FR555000222000' });
    expect(JSON.stringify(read)).to.not.contain('unece:identifier').and.not.contain('unece:registeredId');
  });

  it('a name in two languages, a language-tagged summaryDescription and a boolean read back under their keys (issue row 3)', async () => {
    const name = [
      { '@value': 'Harbour Foods', '@language': 'en' },
      { '@value': 'Havenvoedsel', '@language': 'nl' },
    ];
    const sent: Json = {
      ...base(),
      summaryDescription: { '@value': 'Ailes de poulet', '@language': 'fr' },
      consigneeParty: { type: 'TradeParty', name },
      utilizedTransportEquipment: [
        { type: 'LogisticsTransportEquipment', specifiedTransportMeans: [{ driverAccompaniedIndicator: true }] },
      ],
    };
    const read = await createAndRead(sent);
    expect(read.summaryDescription).to.deep.equal({ '@value': 'Ailes de poulet', '@language': 'fr' });
    expect(read.consigneeParty.name).to.have.deep.members(name);
    expect(read.utilizedTransportEquipment[0].specifiedTransportMeans[0].driverAccompaniedIndicator).to.equal(true);
    expectAsSent(read, sent);
  });

  it("pilot E's root id reads back as sent, its consignment is read by its globalId, and an Update keeps or drops it as sent", async () => {
    const sent = pilotE();
    const read = await createAndRead(sent);
    expect(read.id).to.equal(sent.id);
    expect(read.globalId).to.equal(sent.globalId);
    const { id: _id, ...withoutId } = sent;
    const update = async (object: Json) => {
      const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, object));
      expect(res.body.status, res.text).to.equal('completed');
      return (await view(node, sent.globalId)).body;
    };
    expect((await update({ ...sent, id: `${sent.id}-2` })).id).to.equal(`${sent.id}-2`);
    // An Update is the complete state: one without a root id leaves the view's id to the globalId.
    expect((await update(withoutId)).id).to.equal(sent.globalId);
    // The marker stays the node's: a payload cannot set it, and it never shows in the JSON.
    const spoofed = await update({ ...withoutId, 'https://w3id.org/supply-chain-dataspace/ns#sentId': 'urn:x:spoofed' });
    expect(spoofed.id).to.equal(sent.globalId);
    expect(JSON.stringify(spoofed)).to.not.contain('sentId').and.not.contain('valueOrder');
  });

  it('arrays of plain values read back in the order sent: strings, numbers, language-tagged text (issue row 5)', async () => {
    const sent: Json = {
      ...base(),
      summaryDescription: ['Zinc sheets', 'Apple crates', 'Maple syrup'],
      loadingLocation: { type: 'LogisticsLocation', id: 'unece:LOCODE#NLRTM', latitudeMeasure: [51.9, 4.5, 50.1] },
      consigneeParty: {
        type: 'TradeParty',
        name: [
          { '@value': 'Zuidhaven BV', '@language': 'nl' },
          { '@value': 'Southport Ltd', '@language': 'en' },
          { '@value': 'Port du Sud', '@language': 'fr' },
        ],
      },
    };
    const read = await createAndRead(sent);
    expect(read.summaryDescription).to.deep.equal(['Zinc sheets', 'Apple crates', 'Maple syrup']);
    expect(read.loadingLocation.latitudeMeasure).to.deep.equal([51.9, 4.5, 50.1]);
    expect(read.consigneeParty.name.map((n: Json) => n['@language'])).to.deep.equal(['nl', 'en', 'fr']);
    expectAsSent(read, sent);
    // An Update's complete list is the new order.
    const reordered = { ...sent, summaryDescription: ['Maple syrup', 'Zinc sheets', 'Apple crates'] };
    const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, reordered));
    expect(res.body.status, res.text).to.equal('completed');
    expect((await view(node, sent.globalId)).body.summaryDescription).to.deep.equal(['Maple syrup', 'Zinc sheets', 'Apple crates']);
  });

  it('loadingLocation {type, id: unece:LOCODE#NLRTM, name} reads back as that object (issue row 4)', async () => {
    const loadingLocation = { type: 'LogisticsLocation', id: 'unece:LOCODE#NLRTM', name: 'Rotterdam' };
    const read = await createAndRead({ ...base(), loadingLocation });
    expect(read.loadingLocation).to.deep.equal(loadingLocation);
  });

  it('an Update with the complete list [E, A] after [A, B, D] reads back [E, A] (issue row 5)', async () => {
    const item = (identifier: string) => ({ type: 'Consignment', identifier });
    const sent: Json = { ...base(), includedConsignment: ['A', 'B', 'D'].map(item) };
    await createAndRead(sent);
    const updated = await node.publish(
      'forwarder',
      activity('Update', USERS.forwarder.org, { ...sent, includedConsignment: ['E', 'A'].map(item) }),
    );
    expect(updated.body.status, updated.text).to.equal('completed');
    const read = (await view(node, sent.globalId)).body;
    expect(read.includedConsignments.map((c: Json) => c.identifier)).to.deep.equal(['E', 'A']);
  });

  it('round-trips value objects, two languages, booleans, numbers, locations by id, nested parties and list order', async () => {
    const sent: Json = {
      ...base(),
      summaryDescription: [
        { '@value': 'Machine parts', '@language': 'en' },
        { '@value': 'Maschinenteile', '@language': 'de' },
      ],
      consignorParty: {
        type: 'TradeParty',
        name: 'Acme Exports',
        identifier: { '@type': EORI, '@value': 'GB555000333000' },
        postalAddress: { type: 'TradeAddress', streetName: 'Quay Road 1', tradeAddressCountryId: 'unece:CountryId#GB' },
      },
      packageQuantity: { 'unece:QuantityTypeValue': 12 },
      weightUnitNetWeightMeasure: [{ 'unece:WeightUnitMeasureTypeValue': '10.5' }, { 'unece:WeightUnitMeasureTypeValue': 3 }],
      loadingLocation: { type: 'LogisticsLocation', id: 'unece:LOCODE#GBFXT', name: 'Felixstowe' },
      unloadingLocation: {
        id: 'unece:LOCODE#NLRTM',
        name: [
          { '@value': 'Rotterdam', '@language': 'en' },
          { '@value': 'Rotterdam haven', '@language': 'nl' },
        ],
      },
      utilizedTransportEquipment: ['EQ9', 'EQ1', 'EQ5'].map((identifier, i) => ({
        type: 'LogisticsTransportEquipment',
        identifier,
        specifiedTransportMeans: [{ identifier: `TR-${i}`, driverAccompaniedIndicator: i % 2 === 0 }],
      })),
      includedConsignment: ['K', 'B', 'Z'].map((identifier) => ({
        type: 'Consignment',
        identifier,
        consigneeParty: { type: 'TradeParty', registeredId: { '@type': EORI, '@value': `FR${identifier}555000` } },
      })),
    };
    expectAsSent(await createAndRead(sent), sent);
  });

  it('numbers and booleans sent under xsd:string terms read back as sent, stored as text the term types (sequenceNumeric: 30)', async () => {
    const sent: Json = {
      ...base(),
      includedConsignmentItem: [
        { type: 'ConsignmentItem', sequenceNumeric: 30, information: ['Frozen', 2, true] },
        { type: 'ConsignmentItem', sequenceNumeric: 30.5, information: 'Chilled' },
        { type: 'ConsignmentItem', sequenceNumeric: '31' },
      ],
    };
    const read = await createAndRead(sent);
    expect(read.includedConsignmentItem.map((i: Json) => i.sequenceNumeric)).to.deep.equal([30, 30.5, '31']);
    expect(read.includedConsignmentItem[0].information).to.deep.equal(['Frozen', 2, true]);
    expectAsSent(read, sent);
    expect(JSON.stringify(read)).to.not.contain('sentScalars');
    // What a SPARQL user of the vocabulary reads: text typed xsd:string, as JSON writes the number (not "3.05E1").
    const nquads = await node.request('GET', `/supply-chain/data-space/consignments/${encodeURIComponent(sent.globalId)}`, {
      token: await node.login('forwarder'),
      headers: { accept: 'application/n-quads' },
    });
    expect(nquads.status, nquads.text).to.equal(200);
    const sequence = (text: string) => new RegExp(`<https://vocabulary.uncefact.org/sequenceNumeric> "${text}"(\\^\\^<[^>]+#string>)? `);
    for (const text of ['30', '30.5', '31']) expect(nquads.text).to.match(sequence(text));
    expect(nquads.text)
      .to.not.contain('3.05E1')
      .and.not.match(/sequenceNumeric> "[^"]*"\^\^<[^>]*#(integer|double|decimal)>/);
    // An Update without them reads back what it sent: the marker is the node's, rewritten with each state.
    const texts = { ...sent, includedConsignmentItem: [{ type: 'ConsignmentItem', sequenceNumeric: '30' }] };
    expect((await node.publish('forwarder', activity('Update', USERS.forwarder.org, texts))).body.status).to.equal('completed');
    expect((await view(node, sent.globalId)).body.includedConsignmentItem[0].sequenceNumeric).to.equal('30');
  });

  function base(): Json {
    return { '@context': D23B, type: 'Consignment', identifier: `RT-${newGlobalId().slice(-10)}`, globalId: newGlobalId() };
  }
});
