import { expect } from 'chai';
import { withPositions } from '../../../../src/core/activities/item-order.js';
import { restoreScalars } from '../../../../src/core/views/sent-scalars.js';

const SENT_SCALARS = 'https://w3id.org/supply-chain-dataspace/ns#sentScalars';

/** Numbers and booleans under xsd:string terms: written as text with their marker, read back as sent. */
describe('numbers and booleans sent under xsd:string terms (issue 47)', () => {
  it('writes them as the text JSON gives them, with one marker a field, and leaves other terms and sent markers alone', () => {
    const object = {
      '@context': 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld',
      sequenceNumeric: 30.5,
      information: ['Frozen', 2, true],
      'unece:QuantityTypeValue': 25,
      driverAccompaniedIndicator: true,
      identifier: 42,
      [SENT_SCALARS]: 'spoofed',
    };
    const written = (withPositions({ type: 'Create', object }) as { object: Record<string, unknown> }).object;
    expect(written.sequenceNumeric).to.equal('30.5');
    expect(written.information).to.deep.equal(['Frozen', '2', 'true']);
    // A compact IRI has no term's coercion, and xsd:boolean is the boolean's own type: both kept.
    expect(written['unece:QuantityTypeValue']).to.equal(25);
    expect(written.driverAccompaniedIndicator).to.equal(true);
    // An identifier must be text: kept a number, for field-types.ts to refuse with 422.
    expect(written.identifier).to.equal(42);
    expect(written[SENT_SCALARS]).to.deep.equal([JSON.stringify(['sequenceNumeric', [30.5]]), JSON.stringify(['information', [2, true]])]);
  });

  it('reads the values the marker names back as numbers and booleans, in nested nodes, and removes the marker', () => {
    const tree: Record<string, unknown> = {
      sequenceNumeric: '30',
      items: [{ information: ['Frozen', '2', 'true'], 'svc:sentScalars': JSON.stringify(['information', [2, true]]) }],
      'svc:sentScalars': [JSON.stringify(['sequenceNumeric', [30]]), 'not json'],
    };
    restoreScalars(tree);
    expect(tree).to.deep.equal({ sequenceNumeric: 30, items: [{ information: ['Frozen', 2, true] }] });
  });
});
