import { expect } from 'chai';
import { restoreValueOrder, takeSentId } from '../../../../src/core/views/value-order.js';

/** The read side of svc:valueOrder and svc:sentId on compacted trees as frame.ts hands them over. */
describe('value order and the sent root id in the read view (issue 47)', () => {
  const marker = (key: string, values: unknown[]) => JSON.stringify([key, values]);

  it('puts strings, numbers and language-tagged values back in the order sent, and removes the marker', () => {
    const node: Record<string, unknown> = {
      summaryDescription: ['Apple', 'Maple', 'Zinc'],
      latitudeMeasure: [4.5, 50.1, 51.9],
      name: [
        { '@value': 'Port du Sud', '@language': 'fr' },
        { '@value': 'Zuidhaven', '@language': 'nl' },
      ],
      'svc:valueOrder': [
        marker('summaryDescription', ['Zinc', 'Apple', 'Maple']),
        marker('latitudeMeasure', [51.9, 4.5, 50.1]),
        marker('name', [
          { '@language': 'nl', '@value': 'Zuidhaven' },
          { '@value': 'Port du Sud', '@language': 'fr' },
        ]),
      ],
    };
    restoreValueOrder(node);
    expect(node).to.deep.equal({
      summaryDescription: ['Zinc', 'Apple', 'Maple'],
      latitudeMeasure: [51.9, 4.5, 50.1],
      name: [
        { '@value': 'Zuidhaven', '@language': 'nl' },
        { '@value': 'Port du Sud', '@language': 'fr' },
      ],
    });
  });

  it('orders nested nodes, a key sent as a compact IRI under its term, and a number read back as its text', () => {
    const tree: Record<string, unknown> = {
      consigneeParty: { name: ['b', 'a'], 'https://w3id.org/supply-chain-dataspace/ns#valueOrder': marker('unece:name', ['a', 'b']) },
      items: [{ sequenceNumeric: ['4', '30'], 'svc:valueOrder': marker('sequenceNumeric', [30, 4]) }],
    };
    restoreValueOrder(tree);
    expect(tree).to.deep.equal({ consigneeParty: { name: ['a', 'b'] }, items: [{ sequenceNumeric: ['30', '4'] }] });
  });

  it('keeps values the marker does not name after the others, in store order, and ignores a marker it cannot read', () => {
    const node: Record<string, unknown> = {
      information: ['x', 'c', 'y', 'a'],
      'svc:valueOrder': [marker('information', ['a', 'c']), 'not json', '["k"]'],
    };
    restoreValueOrder(node);
    expect(node).to.deep.equal({ information: ['a', 'c', 'x', 'y'] });
  });

  it('gives the root id sent, and removes the marker', () => {
    const root: Record<string, unknown> = { globalId: 'g', 'svc:sentId': 'urn:ucr:24PLP1' };
    expect(takeSentId(root)).to.equal('urn:ucr:24PLP1');
    expect(root).to.deep.equal({ globalId: 'g' });
    expect(takeSentId({ globalId: 'g' })).to.equal(undefined);
  });
});
