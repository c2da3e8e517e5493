import { expect } from 'chai';
import { nextPolicyPosition, type ChangeSource } from '../../src/core/ports/change-source.js';
import { walk, type FeedItem, type WalkLimits } from '../../src/core/changes/change-walk.js';
import { START, type Cursor } from '../../src/core/changes/change-cursor.js';
import type { DataChange, DataEntry, PolicyEntry } from '../../src/core/changes/change-entry.js';
import type { PolicyFacts } from '../../src/core/catalog/change-notes.js';
import type { CoverageSubject } from '../../src/core/policy/coverage-subject.js';

const FWD = 'did:web:forwarder.example';
const OTHER = 'did:web:other.example';
const port: CoverageSubject = { org: 'did:web:port.example', role: 'locationOperator', countries: [], locations: ['GBFXT'] };
const border: CoverageSubject = { org: 'did:web:border.example', role: 'borderAgency', countries: ['GB'], locations: [] };
const atPort: PolicyFacts = {
  id: 'urn:dataspace:policy:port',
  owner: FWD,
  role: 'locationOperator',
  countries: [],
  locations: ['GBFXT'],
  consignments: [],
};
const gb: PolicyFacts = {
  id: 'urn:dataspace:policy:gb',
  owner: FWD,
  role: 'borderAgency',
  countries: ['GB'],
  locations: [],
  consignments: [],
};
const WIDE: WalkLimits = { items: 1000, examine: 100_000, slice: 100 };

let seq = 0;
const data = (id: string, change: DataChange, owner = FWD, routes?: string[]): DataEntry => ({
  kind: 'data',
  at: { seq: ++seq, sub: 0 },
  change,
  consignment: `urn:dataspace:consignment:${id}`,
  globalId: id,
  owner,
  published: '2026-11-27T00:00:00Z',
  ...(routes ? { routes } : {}),
});
const policies = (index: ChangeSource, list: PolicyFacts[]): PolicyEntry => {
  const entry: PolicyEntry = { kind: 'policies', at: nextPolicyPosition(index), published: '2026-11-27T00:00:00Z', policies: list };
  index.append(entry);
  return entry;
};
const shown = (items: FeedItem[]) => items.map((i) => `${i.change} ${i.globalId}`);

async function all(
  index: ChangeSource,
  subject: CoverageSubject,
  limits: WalkLimits,
  from: Cursor = START,
): Promise<{ items: FeedItem[]; requests: number }> {
  const items: FeedItem[] = [];
  let cursor = from;
  for (let requests = 1; ; requests++) {
    const page = await walk(index, subject, cursor, limits);
    items.push(...page.items);
    cursor = page.next;
    if (page.atEnd && page.items.length === 0) return { items, requests };
  }
}

/**
 * What every ChangeSource answers (the change walk's cases), whichever keeps the journal's index: a
 * single node's memory (core/ports/memory-change-source.ts, run by test/unit/core/changes/change-walk.test.ts)
 * or a replica set's PostgreSQL (adapters/postgres/postgres-changes.ts, run by
 * test/replicas/postgres-changes.test.ts). `make` gives a fresh, empty one for each case.
 */
export function changeWalkCases(make: () => Promise<ChangeSource>): void {
  it('follows the route at each point: an operator sees a consignment while it is routed through its port', async () => {
    const index = await make();
    policies(index, [atPort]);
    index.append(data('a', 'consignment-created', FWD, ['NLRTM']));
    index.append(data('a', 'event-added'));
    index.append(data('a', 'consignment-updated', FWD, ['GBFXT']));
    index.append(data('a', 'event-added'));
    index.append(data('a', 'consignment-updated', FWD, ['DEHAM']));
    index.append(data('a', 'event-added'));
    expect(shown((await all(index, port, WIDE)).items)).to.deep.equal(['consignment-updated a', 'event-added a']);
  });

  it('tells what a policy change made visible and invisible, only for consignments of that owner', async () => {
    const index = await make();
    index.append(data('a', 'consignment-created'));
    index.append(data('x', 'consignment-created', OTHER));
    index.append(data('b', 'consignment-created'));
    policies(index, [gb]);
    index.append(data('b', 'event-added'));
    policies(index, []);
    index.append(data('a', 'event-added'));
    index.append(data('x', 'event-added', OTHER));
    expect(shown((await all(index, border, WIDE)).items)).to.deep.equal([
      'became-visible a',
      'became-visible b',
      'event-added b',
      'became-invisible a',
      'became-invisible b',
    ]);
    // The owner sees its own changes whatever the policies, and nothing of the policies' effect.
    const other = { org: OTHER, role: 'freightForwarder', countries: [], locations: [] } as CoverageSubject;
    expect(shown((await all(index, other, WIDE)).items)).to.deep.equal(['consignment-created x', 'event-added x']);
  });

  it('answers the same items in pages of any size, and ends a page early past its work bound', async () => {
    const index = await make();
    for (let i = 0; i < 50; i++) index.append(data(`hidden-${i}`, 'consignment-created', OTHER));
    for (let i = 0; i < 10; i++) index.append(data(`c${i}`, 'consignment-created'));
    policies(index, [gb]);
    for (let i = 0; i < 10; i++) index.append(data(`c${i}`, 'event-added'));
    const whole = shown((await all(index, border, WIDE)).items);
    expect(whole).to.have.length(20);
    const small = await all(index, border, { items: 3, examine: 100_000, slice: 7 });
    expect(shown(small.items)).to.deep.equal(whole);
    // Twelve looked at a request: the fifty hidden changes take five requests that show nothing, each with a next.
    const bounded = await all(index, border, { items: 1000, examine: 12, slice: 5 });
    expect(shown(bounded.items)).to.deep.equal(whole);
    expect(bounded.requests).to.be.at.least(Math.ceil(80 / 12));
    const first = await walk(index, border, START, { items: 1000, examine: 12, slice: 5 });
    expect(first.items).to.deep.equal([]);
    expect(first.atEnd).to.equal(false);
  });

  it('waits at a policy change whose policies are not read yet, and goes on once they are', async () => {
    const index = await make();
    index.append(data('a', 'consignment-created'));
    const held: PolicyEntry = { kind: 'policies', at: nextPolicyPosition(index), published: '2026-11-27T00:00:00Z', policies: [] };
    index.append(held, false);
    index.append(data('a', 'event-added'));
    const page = await walk(index, border, START, WIDE);
    expect(page.items).to.deep.equal([]);
    expect(page.atEnd).to.equal(true);
    held.policies = [gb];
    index.timeline.resolve(held);
    expect(shown((await walk(index, border, page.next, WIDE)).items)).to.deep.equal(['became-visible a', 'event-added a']);
  });

  it('applies changes told as what they did (registered, withdrawn) on the policies in force, the same as full statements', async () => {
    const told = await make();
    const stated = await make();
    const change = (registered: PolicyFacts[], withdrawn: string[], all: PolicyFacts[]) => {
      told.append({ kind: 'policies', at: nextPolicyPosition(told), published: '2026-11-27T00:00:00Z', registered, withdrawn });
      policies(stated, all);
    };
    for (const index of [told, stated]) index.append({ ...data('a', 'consignment-created', FWD, ['GBFXT']), at: { seq: 1000, sub: 0 } });
    change([gb, atPort], [], [gb, atPort]);
    change([], [gb.id], [atPort]);
    change([gb], [atPort.id], [gb]);
    change([], [gb.id, 'urn:dataspace:policy:never-registered'], []);
    for (const subject of [border, port]) {
      expect(shown((await all(told, subject, WIDE)).items)).to.deep.equal(shown((await all(stated, subject, WIDE)).items));
    }
    expect(shown((await all(told, border, WIDE)).items)).to.deep.equal([
      'became-visible a',
      'became-invisible a',
      'became-visible a',
      'became-invisible a',
    ]);
    expect([...told.timeline.policiesInForce()]).to.deep.equal([]);
  });

  it('applies a change told behind a held one only once the held one is read', async () => {
    const index = await make();
    index.append(data('a', 'consignment-created'));
    const held: PolicyEntry = { kind: 'policies', at: nextPolicyPosition(index), published: '2026-11-27T00:00:00Z' };
    index.append(held, false);
    const told: PolicyEntry = { kind: 'policies', at: nextPolicyPosition(index), published: '2026-11-27T00:00:00Z', withdrawn: [gb.id] };
    index.append(told);
    expect(index.timeline.isHeld(told)).to.equal(true);
    held.policies = [gb];
    index.timeline.resolve(held);
    expect(index.timeline.isHeld(told)).to.equal(false);
    expect(shown((await all(index, border, WIDE)).items)).to.deep.equal(['became-visible a', 'became-invisible a']);
    expect([...index.timeline.policiesInForce()]).to.deep.equal([]);
  });

  it('refuses an entry out of order', async () => {
    const index = await make();
    const later = data('a', 'consignment-created');
    const earlier = { ...data('b', 'consignment-created'), at: { seq: later.at.seq - 1, sub: 0 } };
    index.append(later);
    expect(() => index.append(earlier)).to.throw(/is not after/);
  });
}
