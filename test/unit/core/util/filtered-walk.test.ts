import { expect } from 'chai';
import { walkPage } from '../../../../src/core/util/filtered-walk.js';

/** Entries in ascending seq, and a source that opens them after a seq as the index's lists do. */
const entries = Array.from({ length: 100 }, (_, i) => ({ seq: i + 1 }));
const source = (list: { seq: number }[]) =>
  function* (after: number) {
    for (const e of list) if (e.seq > after) yield e;
  };

describe('walkPage (a bounded page of a filtered index walk)', () => {
  const rows: [string, (e: { seq: number }) => boolean][] = [
    ['every entry', () => true],
    ['every seventh', (e) => e.seq % 7 === 0],
    ['one near the end', (e) => e.seq === 97],
    ['none', () => false],
  ];
  for (const [name, keep] of rows) {
    for (const [items, examine, slice] of [
      [1, 1000, 1000],
      [3, 10, 4],
      [5, 1, 1],
      [500, 25, 7],
    ] as const) {
      it(`pages ${name} completely and in order at ${items} items, ${examine} examined, slices of ${slice}`, async () => {
        const seen: number[] = [];
        let after: number | undefined = 0;
        let pages = 0;
        while (after !== undefined) {
          let opened = 0;
          const counting = (from: number) => {
            opened++;
            return source(entries)(from);
          };
          const page: Awaited<ReturnType<typeof walkPage<{ seq: number }, number>>> = await walkPage(counting, (e) => e.seq, after, keep, {
            items,
            examine,
            slice,
          });
          expect(page.items.length).to.be.at.most(items);
          // The work of a page is bounded: it opens the source once per slice it looks through.
          expect(opened).to.be.at.most(Math.ceil((examine + 1) / slice) + 1);
          seen.push(...page.items.map((e) => e.seq));
          after = page.next;
          pages++;
          expect(pages).to.be.below(200);
        }
        expect(seen).to.deep.equal(entries.filter(keep).map((e) => e.seq));
      });
    }
  }

  it('misses nothing when the list changes between two turns of a walk', async () => {
    const list = entries.map((e) => ({ ...e }));
    let turns = 0;
    const changing = (after: number) => {
      // A write between turns: an entry before the walk's place goes, which shifts every later one.
      if (turns++ > 0) list.splice(0, 1);
      return source(list)(after);
    };
    const page = await walkPage(
      changing,
      (e) => e.seq,
      0,
      () => true,
      { items: 1000, examine: 1000, slice: 10 },
    );
    expect(page.items.map((e) => e.seq)).to.deep.equal(entries.map((e) => e.seq));
  });
});
