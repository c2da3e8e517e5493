import { expect } from 'chai';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';
import { captured } from '../helpers/present.js';

const INBOX = '/supply-chain/data-space/inbox';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

describe('inbox and reads for the publisher', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  describe('Create', () => {
    it('answers 201 with a completed activity-log entry that can be fetched again', async () => {
      const c = consignment();
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ status: 'completed', generator: 'supply-chain-dataspace-node' });
      expect(res.body.id).to.match(/^urn:uuid:/);
      expect(Date.parse(res.body.dateCreated)).to.be.a('number').and.not.NaN;
      expect(res.body.tasks).to.have.length(1);
      const [t] = res.body.tasks;
      expect(t).to.include.keys('taskId', 'dataspaceAppId', 'status', 'startDate', 'endDate', 'result');
      expect(t.status).to.equal('completed');
      expect(t.result).to.be.a('number').above(0);
      const again = await node.as('forwarder', 'GET', `/supply-chain/data-space/activity-logs/${encodeURIComponent(res.body.id)}`);
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(res.body);
    });

    it('is readable by globalId, identifier and activity-log id, with the read-view fields', async () => {
      const c = consignment();
      const created = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      for (const id of [c.globalId, c.identifier, created.body.id]) {
        const res = await node.as('forwarder', 'GET', consignmentPath(id));
        expect(res.status, id).to.equal(200);
        expect(res.body.id).to.equal(c.globalId);
        expect(res.body.identifier).to.equal(c.identifier);
      }
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view).to.include.keys(
        'id',
        'created',
        'updated',
        'includedConsignments',
        'documents',
        'events',
        'systemEvents',
        'resolvedTransportMode',
        'resolvedTransportEquipment',
      );
      expect(view.consignor).to.deep.equal(c.consignor);
      expect(view.loadingBaseportLocation).to.deep.equal(c.loadingBaseportLocation);
      expect(view.consignmentItemQuantity).to.deep.equal({ 'unece:QuantityTypeValue': '12' });
      expect(view.resolvedTransportMode).to.deep.equal({ raw: 'unece:TransportModeCodeList#1', code: '1', label: 'Maritime transport' });
      expect(view.resolvedTransportEquipment).to.deep.equal([
        {
          identifier: 'MSKU1234567',
          transportMeansTypes: [{ raw: 'unece:TransportMeansTypeCodeList#3103', code: '3103', label: 'Truck, tautliner, 25 tonne' }],
        },
      ]);
      expect(view.systemEvents).to.have.length(1);
      expect(view.systemEvents[0]).to.include({ type: 'SystemEvent', typeCode: 'CREATE' });
    });

    it('leaves resolvedTransportMode out (never null) and gives resolvedTransportEquipment [] when absent', async () => {
      const c = consignment({ mainCarriageTransportMovement: undefined, utilizedTransportEquipment: undefined });
      delete c.mainCarriageTransportMovement;
      delete c.utilizedTransportEquipment;
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view).to.not.have.property('resolvedTransportMode');
      expect(view.resolvedTransportEquipment).to.deep.equal([]);
    });

    it('refuses a second Create with the same globalId as a processing failure, storing nothing', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const again = await node.publish('forwarder', activity('Create', USERS.forwarder.org, { ...c, summaryDescription: 'changed' }));
      expect(again.status).to.be.within(200, 299);
      expect(again.body.status).to.equal('failed');
      expect(again.body.tasks[0].error).to.have.keys('name', 'message');
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.summaryDescription).to.equal('Machine parts');
    });

    it("refuses an actor that is not the caller's organisation with 403 and stores nothing", async () => {
      const c = consignment();
      const res = await node.publish('forwarder', activity('Create', USERS.otherForwarder.org, c));
      expect(res.status).to.equal(403);
      expect(res.body).to.have.keys('name', 'message');
      expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).status).to.equal(404);
      expect((await node.as('otherForwarder', 'GET', consignmentPath(c.globalId))).status).to.equal(404);
    });

    it('reports terms the contexts do not define with 422, naming them', async () => {
      const c = consignment({ notAD23BTerm: 'x' });
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      expect(res.status).to.equal(422);
      expect(res.body.name).to.equal('GeneralError');
      expect(res.body.message).to.contain('notAD23BTerm');
      expect(res.body.properties.droppedTerms).to.include('notAD23BTerm');
      expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).status).to.equal(404);
    });

    it('accepts a plain-string generator and ignores it (spec 2.1)', async () => {
      const c = consignment();
      const res = await node.publish('forwarder', { ...activity('Create', USERS.forwarder.org, c), generator: 'forwarder-tms-7' });
      expect(res.status).to.equal(201);
      expect(res.body.generator).to.equal('supply-chain-dataspace-node');
    });

    it('refuses a context that is not bundled, without fetching it', async () => {
      const c = consignment({ '@context': 'http://127.0.0.1:1/evil-context.jsonld' });
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      expect(res.status).to.equal(422);
      expect(res.body.message).to.contain('not bundled');
    });
  });

  describe('malformed activities (spec 7.1)', () => {
    const cases: [string, unknown][] = [
      ['an array', []],
      ['a string', 'hello'],
      ['no type', { actor: {}, object: {} }],
      ['an unknown type', { type: 'Delete', actor: {}, object: {} }],
      ['no actor', { type: 'Create', object: consignment() }],
      ['no object', { type: 'Create', actor: {} }],
      ['Add without target', { type: 'Add', actor: {}, object: event('svc:despatched') }],
      [
        'a target without identifier',
        {
          type: 'Add',
          actor: {},
          object: event('svc:despatched'),
          target: { type: 'Consignment', globalId: 'urn:uuid:6f1c1f5e-5a8e-4a49-9f57-0d6b8ee1c001' },
        },
      ],
    ];
    for (const [name, body] of cases) {
      it(`answers 400 with an error body for ${name}`, async () => {
        const res = await node.publish('forwarder', body);
        expect(res.status).to.equal(400);
        expect(res.body).to.have.keys('name', 'message');
      });
    }

    it('answers 400 for a body that is not JSON', async () => {
      const res = await node.request('POST', INBOX, {
        rawBody: '{"type": ',
        token: await node.login('forwarder'),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.have.keys('name', 'message');
    });

    it('answers 415 for a body that is not declared JSON', async () => {
      const res = await node.request('POST', INBOX, {
        rawBody: 'type=Create',
        token: await node.login('forwarder'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).to.equal(415);
    });

    it('answers 413 for a body over the limit', async () => {
      const big = consignment({ summaryDescription: 'x'.repeat(1024 * 1024 + 10) });
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, big));
      expect(res.status).to.equal(413);
      expect(res.body).to.have.keys('name', 'message');
    });
  });

  describe('Update', () => {
    it('replaces the consignment: omitted fields, carrierParty and carrierAssignedId included, are removed; events and documents stay', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
      await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-1'), target(c)));
      const { carrierParty: _p, carrierAssignedId: _a, ...rest } = c;
      const res = await node.publish(
        'forwarder',
        activity('Update', USERS.forwarder.org, { ...rest, summaryDescription: 'Updated parts' }),
      );
      expect(res.status).to.equal(201);
      expect(res.body.status).to.equal('completed');
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.summaryDescription).to.equal('Updated parts');
      expect(view).to.not.have.any.keys('carrierParty', 'carrierAssignedId');
      expect(view.events).to.have.length(1);
      expect(view.documents).to.have.length(1);
      expect(view.systemEvents.map((e: any) => e.typeCode)).to.deep.equal(['CREATE', 'ADD', 'ADD', 'UPDATE']);
    });

    it('can be matched by identifier (spec 4.2); a different globalId is not a rename: the consignment keeps its own, with a warning', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const res = await node.publish(
        'forwarder',
        activity('Update', USERS.forwarder.org, {
          ...c,
          globalId: 'urn:uuid:00000000-0000-4000-8000-000000000001',
          summaryDescription: 'Matched by identifier',
        }),
      );
      expect(res.body.status).to.equal('completed');
      expect(res.body.warnings[0].message).to.contain(c.globalId);
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view).to.include({ globalId: c.globalId, summaryDescription: 'Matched by identifier' });
    });

    it('changes the identifier when matched by globalId', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const res = await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, identifier: `${c.identifier}-B` }));
      expect(res.body.status).to.equal('completed');
      expect((await node.as('forwarder', 'GET', consignmentPath(`${c.identifier}-B`))).body.id).to.equal(c.globalId);
    });

    it('fails, storing nothing, for a consignment that does not exist or that another organisation owns', async () => {
      const missing = await node.publish('forwarder', activity('Update', USERS.forwarder.org, consignment()));
      expect(missing.status).to.be.within(200, 299);
      expect(missing.body.status).to.equal('failed');
      expect(missing.body.tasks[0].error.name).to.equal('NotFound');
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const foreign = await node.publish(
        'otherForwarder',
        activity('Update', USERS.otherForwarder.org, { ...c, summaryDescription: 'hijack' }),
      );
      expect(foreign.body.status).to.equal('failed');
      expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.summaryDescription).to.equal('Machine parts');
    });

    describe('includedConsignment list semantics (spec 4.2)', () => {
      const withItems = (items: any[] | undefined) => {
        const c = consignment({
          includedConsignment: [
            { type: 'Consignment', identifier: 'HB-1', summaryDescription: 'one' },
            { type: 'Consignment', identifier: 'HB-2', summaryDescription: 'two' },
          ],
        });
        const update = { ...c };
        if (items === undefined) delete update.includedConsignment;
        else update.includedConsignment = items;
        return { c, update };
      };
      const identifiers = (view: any) => view.includedConsignments.map((i: any) => i.identifier).sort();

      it('updates matching items, adds new ones and removes missing ones', async () => {
        const { c, update } = withItems([
          { type: 'Consignment', identifier: 'HB-2', summaryDescription: 'two, revised' },
          { type: 'Consignment', identifier: 'HB-3' },
        ]);
        await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        await node.publish('forwarder', activity('Update', USERS.forwarder.org, update));
        const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
        expect(identifiers(view)).to.deep.equal(['HB-2', 'HB-3']);
        expect(view.includedConsignments.find((i: any) => i.identifier === 'HB-2').summaryDescription).to.equal('two, revised');
      });

      it('leaves the items untouched when the field is omitted', async () => {
        const { c, update } = withItems(undefined);
        await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...update, summaryDescription: 'changed' }));
        const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
        expect(view.summaryDescription).to.equal('changed');
        expect(identifiers(view)).to.deep.equal(['HB-1', 'HB-2']);
      });

      it('removes every item for an empty array', async () => {
        const { c, update } = withItems([]);
        await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        await node.publish('forwarder', activity('Update', USERS.forwarder.org, update));
        expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.includedConsignments).to.deep.equal([]);
      });
    });
  });

  describe('Add', () => {
    it('records an event on the consignment', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const res = await node.publish(
        'forwarder',
        activity(
          'Add',
          USERS.forwarder.org,
          event('svc:despatched', { occurrenceLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' } }),
          target(c),
        ),
      );
      expect(res.status).to.equal(201);
      expect(res.body.status).to.equal('completed');
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.events).to.have.length(1);
      expect(view.events[0]).to.include({
        typeCode: 'svc:despatched',
        occurrenceDateTime: '2026-11-20T10:00:00Z',
        publisher: USERS.forwarder.org,
      });
      expect(view.events[0].occurrenceLocation).to.deep.equal({ type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' });
      expect(view.events[0].id).to.match(/^urn:uuid:/);
    });

    it('fails for a target that does not exist, and for a target whose identifier does not match', async () => {
      const missing = await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(consignment())));
      expect(missing.status).to.be.within(200, 299);
      expect(missing.body.status).to.equal('failed');
      expect(missing.body.tasks[0].error).to.include({ name: 'NotFound' });
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      const mismatch = await node.publish(
        'forwarder',
        activity('Add', USERS.forwarder.org, event('svc:despatched'), target({ globalId: c.globalId, identifier: 'WRONG' })),
      );
      expect(mismatch.body.status).to.equal('failed');
      expect((await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body.events).to.deep.equal([]);
    });

    it('attaches documents, and a repeated identifier makes a new revision with history', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-1'), target(c)));
      await node.publish(
        'forwarder',
        activity(
          'Add',
          USERS.forwarder.org,
          document('INV-1', { versionId: '2', uRIId: 'data:application/pdf;base64,JVBERi0xLjcK' }),
          target(c),
        ),
      );
      await node.publish(
        'forwarder',
        activity('Add', USERS.forwarder.org, document('CERT-9', { documentTypeCode: 'unece:DocumentCodeList#853' }), target(c)),
      );
      const docs = (await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents`)).body;
      expect(docs).to.have.length(2);
      const invoice = docs.find((d: any) => d.documentId === 'INV-1');
      expect(invoice).to.include({ documentCode: '380', documentType: 'Commercial invoice', documentRevision: 2 });
      expect(invoice.metadata).to.include({ fileExtension: 'pdf', encodingFormat: 'application/pdf' });
      expect(invoice.history).to.have.length(1);
      expect(invoice.history[0].documentRevision).to.equal(1);
      expect(invoice.history[0].href).to.be.a('string');
      const cert = docs.find((d: any) => d.documentId === 'CERT-9');
      expect(cert).to.include({ documentCode: '853', documentType: 'Veterinary certificate', documentRevision: 1 });
      const one = await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents/${encodeURIComponent(invoice.id)}?meta`);
      expect(one.status).to.equal(200);
      expect(one.body.id).to.equal(invoice.id);
      const byIdentifier = await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents/INV-1?meta`);
      expect(byIdentifier.body.id).to.equal(invoice.id);
      expect((await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents/NOPE?meta`)).status).to.equal(404);
    });
  });

  describe('lists', () => {
    it('pages consignments with a Link header, in a stable order, without duplicates or gaps', async () => {
      const fresh = await TestNode.start();
      try {
        const ids: string[] = [];
        for (let i = 0; i < 7; i++) {
          const c = consignment();
          ids.push(c.globalId);
          await fresh.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        }
        const seen: string[] = [];
        let path: string | undefined = '/supply-chain/data-space/consignments?limit=3';
        let pages = 0;
        while (path) {
          const res = await fresh.as('forwarder', 'GET', path);
          expect(res.status).to.equal(200);
          expect(res.body).to.be.an('array');
          seen.push(...res.body.map((c: any) => c.globalId));
          const link = res.headers.get('link');
          path = link ? captured(/<([^>]+)>;\s*rel="next"/, link) : undefined;
          pages++;
        }
        expect(pages).to.equal(3);
        expect(seen).to.deep.equal(ids);
      } finally {
        await fresh.stop();
      }
    });

    it('refuses a bad limit or cursor with 400', async () => {
      for (const q of ['limit=0', 'limit=501', 'limit=abc', 'cursor=zzz']) {
        const res = await node.as('forwarder', 'GET', `/supply-chain/data-space/consignments?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.body).to.have.keys('name', 'message');
      }
    });

    it('lists documents across consignments and for one consignment', async () => {
      const c = consignment();
      await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      await node.publish(
        'forwarder',
        activity('Add', USERS.forwarder.org, document('PL-1', { documentTypeCode: 'unece:DocumentCodeList#271' }), target(c)),
      );
      const one = await node.as('forwarder', 'GET', `/supply-chain/data-space/documents?consignmentId=${encodeURIComponent(c.globalId)}`);
      expect(one.status).to.equal(200);
      expect(one.body.map((d: any) => d.documentId)).to.deep.equal(['PL-1']);
      const all: any[] = [];
      let path: string | undefined = '/supply-chain/data-space/documents?limit=2';
      while (path) {
        const res = await node.as('forwarder', 'GET', path);
        all.push(...res.body);
        const link = res.headers.get('link');
        path = link ? captured(/<([^>]+)>/, link) : undefined;
      }
      expect(all.some((d) => d.documentId === 'PL-1' && d.consignmentId === c.globalId)).to.equal(true);
      expect(new Set(all.map((d) => d.id)).size).to.equal(all.length);
    });

    it('answers 404 for unknown ids', async () => {
      expect((await node.as('forwarder', 'GET', consignmentPath('urn:uuid:00000000-0000-4000-8000-00000000dead'))).status).to.equal(404);
      expect((await node.as('forwarder', 'GET', `${consignmentPath('nope')}/documents`)).status).to.equal(404);
      expect(
        (await node.as('forwarder', 'GET', '/supply-chain/data-space/activity-logs/urn:uuid:00000000-0000-4000-8000-00000000dead')).status,
      ).to.equal(404);
      expect((await node.as('forwarder', 'GET', '/supply-chain/data-space/documents?consignmentId=nope')).status).to.equal(404);
    });
  });
});
