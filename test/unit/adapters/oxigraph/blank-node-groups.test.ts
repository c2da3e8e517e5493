import { expect } from 'chai';
import { LineGrouping, type LineGroups } from '../../../../src/adapters/oxigraph/blank-node-groups.js';

const G = '<urn:g>';
const inG = (line: string) => line.endsWith(` ${G} .`);

/** Grouped in steps of `budgetMs`; answers the result and how many steps it took. */
function grouped(text: string, shared: string[] = [], budgetMs = Infinity): LineGroups & { steps: number; labels: number } {
  const grouping = new LineGrouping(text, (line) => !inG(line), new Set(shared));
  let steps = 1;
  while (grouping.step(budgetMs)) steps += 1;
  return { ...grouping.result(), steps, labels: grouping.labels.size };
}

describe('LineGrouping (lines of N-Quads grouped by the blank nodes they share)', () => {
  it('puts the lines of each blank node together, a line without one alone, in the order of first lines', () => {
    const text = [
      `<urn:r> <urn:p:item> _:i1 ${G} .`,
      `<urn:r> <urn:p:name> "x" ${G} .`,
      `<urn:r> <urn:p:item> _:i2 ${G} .`,
      `_:i1 <urn:p:origin> _:c1 ${G} .`,
      `_:c1 <urn:p:country> "GB" ${G} .`,
      `_:i2 <urn:p:text> "y" ${G} .`,
      '',
    ].join('\n');
    const { groups, kept, labels } = grouped(text);
    expect(groups).to.deep.equal([
      `<urn:r> <urn:p:item> _:i1 ${G} .\n_:i1 <urn:p:origin> _:c1 ${G} .\n_:c1 <urn:p:country> "GB" ${G} .\n`,
      `<urn:r> <urn:p:name> "x" ${G} .\n`,
      `<urn:r> <urn:p:item> _:i2 ${G} .\n_:i2 <urn:p:text> "y" ${G} .\n`,
    ]);
    expect(kept).to.equal('');
    expect(labels).to.equal(3);
  });

  it('keeps a line that stays, every line sharing a blank node with it, and those with a shared label', () => {
    const text = [
      `_:a <urn:p:x> "1" ${G} .`,
      `_:a <urn:p:y> "2" <urn:other> .`,
      `_:b <urn:p:x> "3" ${G} .`,
      `_:c <urn:p:x> "4" ${G} .`,
    ].join('\n');
    const { groups, kept } = grouped(text, ['_:b']);
    expect(groups).to.deep.equal([`_:c <urn:p:x> "4" ${G} .\n`]);
    expect(kept).to.equal(`_:a <urn:p:x> "1" ${G} .\n_:a <urn:p:y> "2" <urn:other> .\n_:b <urn:p:x> "3" ${G} .\n`);
  });

  it('gives the same groups in many short steps as in one, and a large text takes more than one step', () => {
    let text = '';
    for (let i = 0; i < 3000; i++) {
      text += `<urn:r> <urn:p:item> _:i${i} ${G} .\n_:i${i} <urn:p:origin> _:c${i} ${G} .\n_:c${i} <urn:p:country> "GB" ${G} .\n`;
      if (i % 100 === 0) text += `_:c${i} <urn:p:link> _:c${i + 1} ${G} .\n`;
    }
    const whole = grouped(text);
    const stepped = grouped(text, [], 0);
    expect(whole.steps).to.equal(1);
    expect(stepped.steps).to.be.above(10);
    expect(stepped.groups).to.deep.equal(whole.groups);
    expect(stepped.kept).to.equal(whole.kept);
    // Items 100k and 100k + 1 are linked: 3000 items in 2970 groups.
    expect(whole.groups).to.have.length(2970);
    expect(whole.groups.join('').split('\n').length - 1).to.equal(text.split('\n').length - 1);
  });

  it('refuses to answer before it is done', () => {
    const grouping = new LineGrouping(`_:a <urn:p:x> "1" ${G} .\n`.repeat(1000), () => false, new Set());
    expect(grouping.step(0)).to.equal(true);
    expect(() => grouping.result()).to.throw(/not grouped yet/);
  });
});
