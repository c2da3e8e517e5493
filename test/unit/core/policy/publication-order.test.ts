import { expect } from 'chai';
import { Ingest } from '../../../../src/core/activities/ingest.js';
import { HttpError } from '../../../../src/core/errors.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { policyQuads } from '../../../../src/core/policy/policy-rdf.js';
import { PublicationOrder } from '../../../../src/core/policy/publication-order.js';
import { CoveragePolicies } from '../../../../src/core/policy/coverage-policies.js';
import { ConsignmentIndex } from '../../../../src/core/ports/memory-consignment-catalog.js';
import { Visibility } from '../../../../src/core/policy/visibility.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import type { QuadStore } from '../../../../src/core/ports/quad-store.js';
import { activity, consignment, document, target } from '../../../helpers/payloads.js';
import { fedStore } from '../../../helpers/fed-store.js';
import { publish } from '../../../helpers/publish.js';
import { LogApartStore } from '../../../helpers/log-apart-store.js';
import { firstOf, nth } from '../../../helpers/present.js';

const queries = new QueryBank();
const org = (id: string, role: Principal['org']['role'], locations: string[] = []): Principal => ({
  email: `u@${id}`,
  org: { id, name: id, role, locations },
});
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
async function node(base?: QuadStore) {
  const { store } = fedStore(base);
  // Pages of 4 sequence numbers: the load reads the records, routes and documents across several pages.
  const index = new ConsignmentIndex(store, queries, { pageSeqs: 4 });
  // As the node wires it: one index, told each write at its commit by the ingest.
  const ingest = new Ingest({ store, queries, nodeName: 'test-node', index });
  await ingest.init();
  const order = new PublicationOrder(index, new CoveragePolicies(store, queries));
  return { store, ingest, ordered: new Visibility(store, queries, order), plain: new Visibility(store, queries) };
}

/** Every page of `size`, walked after the last seq of the one before. */
async function walk<T extends { seq?: number; docSeq?: number }>(
  list: (after: number, limit: number) => Promise<T[]>,
  size: number,
): Promise<T[]> {
  const all: T[] = [];
  for (let after = 0; ;) {
    const page = await list(after, size);
    all.push(...page);
    if (page.length < size) return all;
    const last = nth(page, -1);
    after = last.seq ?? last.docSeq!;
  }
}

describe('PublicationOrder (candidates for list pages)', () => {
  it('lists, page by page, exactly what the coverage rule alone lists, in publication order', async () => {
    const { store, ingest, ordered, plain } = await node();
    const sent: Record<string, unknown>[] = [];
    for (let i = 0; i < 4; i++) {
      for (const [principal, extra] of [
        [A, {}],
        [B, {}],
        [A, viaHamburg],
      ] as const) {
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
          expect(
            pages.map((c) => c.globalId),
            `${what}: ${principal.org.id}, pages of ${size}`,
          ).to.deep.equal(expected.map((c) => c.globalId));
        }
      }
    };
    expect(await plain.list(A, 0, 1000)).to.have.length(8);
    await check('no policies');
    expect((await ordered.list(A, 0, 100)).map((c) => c.seq)).to.satisfy((seqs: number[]) =>
      seqs.every((s, i) => i === 0 || seqs[i - 1]! < s),
    );
    expect(await ordered.list(ROTTERDAM, 0, 100)).to.deep.equal([]);

    await (
      await store.commit({
        ops: [
          {
            op: 'insert',
            nquads: policyQuads({
              id: 'urn:dataspace:policy:test-1',
              created: '2026-11-23T10:00:00Z',
              owner: A.org.id,
              role: 'locationOperator',
              countries: [],
              locations: ['DEHAM'],
              consignments: [],
            }),
          },
        ],
      })
    ).durable;
    await check('A shares what passes Hamburg');
    expect(await ordered.list(HAMBURG, 0, 100)).to.have.length(4);

    // Written after the order was loaded: told through accepted(), listed on the next page.
    const late = consignment(viaHamburg);
    await publish(ingest, A, activity('Create', A.org.id, late));
    const first = nth(sent, 0);
    await publish(ingest, A, activity('Update', A.org.id, { ...first, ...viaHamburg }));
    await check('after later writes');
    expect((await ordered.list(HAMBURG, 0, 100)).map((c) => c.globalId)).to.include.members([late.globalId, first.globalId]);
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

  for (const kept of ['with the rest', 'apart'] as const)
    it(`finds by globalId, identifier and activity urn exactly what the coverage rule in SPARQL finds, across Updates (activity log kept ${kept})`, async () => {
      const { store, ingest, ordered, plain } = await node(kept === 'apart' ? new LogApartStore() : undefined);
      const ids: string[] = ['urn:uuid:00000000-0000-4000-8000-000000000000', 'REF-none', 'not an iri'];
      const sent: Record<string, unknown>[] = [];
      for (const [principal, extra] of [
        [A, {}],
        [B, viaHamburg],
        [A, viaHamburg],
      ] as const) {
        const c = consignment(extra);
        sent.push(c);
        const entry = await ingest.receive(activity('Create', principal.org.id, c), principal);
        ids.push(c.globalId as string, c.identifier as string, entry.id);
      }
      const [first, second] = firstOf(sent, 2);
      // B reuses A's identifier: an identifier is unique per publisher only.
      const twin = consignment({ identifier: first.identifier });
      await publish(ingest, B, activity('Create', B.org.id, twin));
      ids.push(twin.globalId as string);
      await (
        await store.commit({
          ops: [
            {
              op: 'insert',
              nquads: policyQuads({
                id: 'urn:dataspace:policy:test-find',
                created: '2026-11-23T10:00:00Z',
                owner: B.org.id,
                role: 'locationOperator',
                countries: [],
                locations: ['DEHAM'],
                consignments: [],
              }),
            },
          ],
        })
      ).durable;
      const check = async (what: string) => {
        for (const principal of PRINCIPALS) {
          for (const id of ids) {
            expect((await ordered.find(principal, id))?.consignment, `${what}: ${principal.org.id} finds ${id}`).to.equal(
              (await plain.find(principal, id))?.consignment,
            );
          }
        }
      };
      await check('as created');
      // The urn of A's first Create names its consignment, to A (nth(ids, 5): after three ids and its globalId and identifier).
      for (const visibility of [ordered, plain]) expect((await visibility.find(A, nth(ids, 5)))?.globalId).to.equal(first.globalId);
      expect(await ordered.find(B, nth(ids, 5))).to.equal(undefined);
      expect((await ordered.find(HAMBURG, second.globalId as string))?.globalId).to.equal(second.globalId);
      // A new identifier and a route away from Hamburg: the old identifier names nothing, Hamburg loses sight of it.
      const renamed = {
        ...second,
        identifier: 'REF-renamed',
        unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Rotterdam', UNLocode: 'NLRTM' },
      };
      await publish(ingest, B, activity('Update', B.org.id, renamed, target(second)));
      ids.push('REF-renamed');
      await check('after an Update');
      expect(await ordered.find(HAMBURG, second.globalId as string)).to.equal(undefined);
      expect((await ordered.find(B, 'REF-renamed'))?.globalId).to.equal(second.globalId);
    });

  it('answers 503 with a Retry-After when its load fails or runs long, and loads again on a later read', async () => {
    const { store, ingest, plain } = await node();
    for (const [principal, extra] of [
      [A, {}],
      [B, viaHamburg],
      [A, viaHamburg],
      [B, {}],
    ] as const)
      await publish(ingest, principal, activity('Create', principal.org.id, consignment(extra)));
    // The store as a slow or failing SPARQL server answers the load's page queries.
    let mode: 'fail' | 'hold' | 'answer' = 'fail';
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = new Proxy(store, {
      get(target, property) {
        if (property !== 'select') return Reflect.get(target, property, target);
        return async (query: string) => {
          if (query.includes('?seq > ')) {
            if (mode === 'fail') throw new Error('the server went away');
            if (mode === 'hold') await held;
          }
          return target.select(query);
        };
      },
    });
    const order = new PublicationOrder(new ConsignmentIndex(server, queries, { pageSeqs: 2 }), new CoveragePolicies(server, queries), {
      loadWaitMs: 300,
    });
    const slow = new Visibility(server, queries, order);
    const unavailable = async (what: string) => {
      const error = await slow.list(A, 0, 100).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, what).to.be.instanceOf(HttpError);
      expect((error as HttpError).status, what).to.equal(503);
      expect((error as HttpError).headers?.['Retry-After'], what).to.match(/^[1-9][0-9]*$/);
    };
    await unavailable('a failed load');
    mode = 'hold';
    await unavailable('a load past the wait');
    release();
    mode = 'answer';
    const expected = (await plain.list(A, 0, 100)).map((c) => c.globalId);
    expect(expected).to.have.length(2);
    expect((await slow.list(A, 0, 100)).map((c) => c.globalId)).to.deep.equal(expected);
  });
});
