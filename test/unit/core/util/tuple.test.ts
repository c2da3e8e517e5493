import { expect } from 'chai';
import { hasLength } from '../../../../src/core/util/tuple.js';

describe('hasLength: a row split into fields, checked once', () => {
  it('accepts exactly the length asked for and narrows to a tuple', () => {
    const fields = 'a b c'.split(' ');
    expect(hasLength(fields, 3)).to.equal(true);
    if (!hasLength(fields, 3)) throw new Error('unreachable');
    const [a, b, c]: [string, string, string] = fields;
    expect([a, b, c]).to.deep.equal(['a', 'b', 'c']);
  });

  it('refuses fewer or more items, and the empty list unless 0 is asked for', () => {
    expect(hasLength(['a', 'b'], 3)).to.equal(false);
    expect(hasLength(['a', 'b', 'c', 'd'], 3)).to.equal(false);
    expect(hasLength([], 1)).to.equal(false);
    expect(hasLength([], 0)).to.equal(true);
  });
});
