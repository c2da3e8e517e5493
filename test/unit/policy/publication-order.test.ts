import { expect } from 'chai';
import { Ingest } from '../../../src/activities/ingest.js';
import type { Principal } from '../../../src/auth/principal.js';
import { policyQuads } from '../../../src/policy/policy-rdf.js';
import { PublicationOrder } from '../../../src/policy/publication-order.js';
import { Visibility } from '../../../src/policy/visibility.js';
import { QueryBank } from '../../../src/queries/query-bank.js';
import { activity, consignment, document, target } from '../../helpers/payloads.js';
import { fedStore } from '../../helpers/fed-store.js';

const queries = new QueryBank();
const org = (id: string, role: Principal['org']['role'], locations: string[] = []): Principal => ({ email: `u@${id}`, org: { id, name: id, role, locations } });
const A = org('did:web:a.example', 'freightForwarder');
const B = org('did:web:b.example', 'freightForwarder');
const ROTTERDAM = org('did:web:rotterdam.example', 'locationOperator', ['NLRTM']);
const HAMBURG = org('did:web:hamburg.example', 'locationOperator', ['DEHAM']);
const PRINCIPALS = [A, B, ROTTERDAM, HAMBURG];

const viaHamburg = { unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Hamburg', UNLocode: 'DEHAM' } };

/**
 * A node's write path and both ways of listing: the publication order choosing candidates that the
 * coverage rule then checks, and the coverage rule alone in SPARQL (the lists the order must equal).
 */
async function node() {
  const { store, onAccepted } = fedStore();
  const ingest = new Ingest({ store, queries, nodeName: 'test-node' });
  await ingest.init();
  const order = new PublicationOrder(store, queries);
  onAccepted((accepted) => order.accepted(accepted));
  return { store, ingest, ordered: new Visibility(store, queries, order), plain: new Visibility(store, queries) };
}

async function publish(ingest: Ingest, principal: Principal, body: Record<string, unknown>): Promise<void> {
  expect((await ingest.receive(body, principal)).status).to.equal('completed');
}

/** Every page of `size`, walked after the last seq of the one before. */
async function walk<T extends { seq?: number; docSeq?: number }>(list: (after: number, limit: number) => Promise<T[]>, size: number): Promise<T[]> {
  const all: T[] = [];
  for (let after = 0; ;) {
    const page = await list(after, size);
    all.push(...page);
    if (page.length < size) return all;
    after = page[page.length - 1].seq ?? page[page.length - 1].docSeq!;
  }
}

describe('PublicationOrder (candidates for list pages)', () => {
  it('lists, page by page, exactly what the coverage rule alone lists, in publication order', async () => {
    const { store, ingest, ordered, plain } = await node();
    const sent: Record<string, unknown>[] = [];
    for (let i = 0; i < 4; i++) {
      for (const [principal, extra] of [[A, {}], [B, {}], [A, viaHamburg]] as const) {
        const c = consignment(extra);
        sent.push(c);
        await publish(ingest, principal, activity('Create', principal.org.id, c));
      }
    }
    const check = async (what: string) => {
      for (const principal of PRINCIPALS) {
        const expected = await plain.list(principal, 0, 1000);
        for (const size of [1, 2, 5, 100]) {
          const pages = await walk((after, limit) => ordered.list(principal, after, limit), size);
          expect(pages.map((c) => c.globalId), `${what}: ${principal.org.id}, pages of ${size}`).to.deep.equal(expected.map((c) => c.globalId));
        }
      }
    };
    expect(await plain.list(A, 0, 1000)).to.have.length(8);
    await check('no policies');
    expect((await ordered.list(A, 0, 100)).map((c) => c.seq)).to.satisfy((seqs: number[]) => seqs.every((s, i) => i === 0 || seqs[i - 1] < s));
    expect(await ordered.list(ROTTERDAM, 0, 100)).to.deep.equal([]);

    await (await store.commit({ ops: [{ op: 'insert', nquads: policyQuads({ id: 'urn:dataspace:policy:test-1', created: '2026-11-23T10:00:00Z', owner: A.org.id, role: 'locationOperator', countries: [], locations: ['DEHAM'], consignments: [] }) }] })).durable;
    await check('A shares what passes Hamburg');
    expect(await ordered.list(HAMBURG, 0, 100)).to.have.length(4);

    // Written after the order was loaded: told through accepted(), listed on the next page.
    const late = consignment(viaHamburg);
    await publish(ingest, A, activity('Create', A.org.id, late));
    await publish(ingest, A, activity('Update', A.org.id, { ...sent[0], ...viaHamburg }));
    await check('after later writes');
    expect((await ordered.list(HAMBURG, 0, 100)).map((c) => c.globalId)).to.include.members([late.globalId, sent[0].globalId]);
  });

  it('lists documents of readable consignments as the coverage rule alone does, page by page', async () => {
    const { ingest, ordered, plain } = await node();
    for (let i = 0; i < 3; i++) {
      for (const principal of [A, B]) {
        const c = consignment();
        await publish(ingest, principal, activity('Create', principal.org.id, c));
        await publish(ingest, principal, activity('Add', principal.org.id, document(`INV-${i}`), target(c)));
        await publish(ingest, principal, activity('Add', principal.org.id, document(`PL-${i}`), target(c)));
      }
    }
    for (const principal of PRINCIPALS) {
      const expected = await plain.documentPage(principal, 0, 1000);
      expect(expected.length, principal.org.id).to.equal(principal.org.role === 'freightForwarder' ? 6 : 0);
      for (const size of [1, 4, 100]) {
        const pages = await walk((after, limit) => ordered.documentPage(principal, after, limit), size);
        expect(pages, `${principal.org.id}, pages of ${size}`).to.deep.equal(expected);
      }
    }
  });
});
