import { expect } from 'chai';
import { capacityRow, rssRows, slopeNotMeaningful, type MemoryAtScale } from '../../../bench/memory-rows.js';
import { belowTargetScale, checkIfMeaningful, shortRuns } from '../../../bench/table.js';

const at = (scale: number, rssStoreMb: number, quotaQuads: number): MemoryAtScale => ({
  scale,
  rssStoreMb,
  rssEngineMb: rssStoreMb + 300,
  quads: quotaQuads,
  quotaQuads,
});

describe('bench targets: a mark only where the figure means something', () => {
  it('marks a figure against its target where it is meaningful, and says why not instead of a mark where it is not', () => {
    expect(checkIfMeaningful('≤ 10 s', true, undefined)).to.equal('≤ 10 s ✓');
    expect(checkIfMeaningful('≤ 10 s', false, undefined)).to.equal('≤ 10 s ✗');
    const not = checkIfMeaningful('≤ 10 s', true, belowTargetScale(1000));
    expect(not).to.equal('≤ 10 s: not meaningful at 1,000 (set for 100,000)');
    expect(not).not.to.match(/[✓✗]/);
    expect(belowTargetScale(100_000)).to.equal(undefined);
  });

  it("judges write rates only from runs past the node's warm-up: the full plan, not the quick one", () => {
    expect(shortRuns(4, 1)).to.equal(undefined);
    expect(checkIfMeaningful('≥ 1,000 /s', false, shortRuns(1, 0.3))).to.equal(
      '≥ 1,000 /s: not meaningful in 1 s runs after 0.3 s of warm-up (the node is still warming up)',
    );
    expect(shortRuns(4, 0.3)).to.be.a('string');
  });

  it("the quick run's RSS slope (300→1,000, −1,005 MB) is not marked as meeting ≤ 250 MB", () => {
    const [store, engine] = rssRows([at(300, 900, 21_500), at(1000, 829.65, 71_200)]);
    expect(store!.value).to.equal('-1005 MB');
    expect(store!.target).to.match(/^≤ 250 MB: not meaningful at 300→1,000: /);
    expect(store!.target).to.contain('≥ 40,000 between the scales');
    expect(store!.target).not.to.match(/[✓✗]/);
    expect(engine!.target).to.match(/^not meaningful at 300→1,000/);
  });

  it('judges the slope between 1k and 100k, and not between 1k and 10k', () => {
    expect(slopeNotMeaningful(1000, 100_000)).to.equal(undefined);
    expect(slopeNotMeaningful(1000, 41_000)).to.equal(undefined);
    expect(slopeNotMeaningful(1000, 10_000)).to.be.a('string');
    expect(slopeNotMeaningful(1000, 1000)).to.be.a('string');
    const [over] = rssRows([at(1000, 600, 71_200), at(100_000, 3450, 7_120_000)]);
    expect(over!.target).to.equal('≤ 250 MB ✗');
    const [under] = rssRows([at(1000, 600, 71_200), at(100_000, 2700, 7_120_000)]);
    expect(under!.target).to.equal('≤ 250 MB ✓');
  });

  it("extrapolates capacity only when the consignments account for the store's quads", () => {
    // 71.2 quads a consignment and 500 quads of seed: 0.7 % of the store at 1,000, so the figure holds.
    const small = capacityRow([at(300, 0, 300 * 71.2 + 500), at(1000, 0, 1000 * 71.2 + 500)]);
    expect(small.target).to.match(/^≥ 150,000 [✓✗]$/);
    // 5,000 fixed quads are 6.6 % of the store at 1,000: quads per consignment would be overstated.
    const skewed = capacityRow([at(300, 0, 300 * 71.2 + 5000), at(1000, 0, 1000 * 71.2 + 5000)]);
    expect(skewed.target).to.match(/^≥ 150,000: not meaningful at 1,000: quads the consignments do not account for are 6\.6 % /);
    expect(capacityRow([at(100_000, 0, 7_120_000)]).target).to.match(/^≥ 150,000 [✓✗]$/);
  });
});
