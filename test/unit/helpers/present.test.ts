import { AssertionError, expect } from 'chai';
import { captured, firstOf, nth, only, present } from '../../helpers/present.js';

/** The test helpers fail the test (an AssertionError naming what is missing), never answer undefined. */
const failure = (read: () => unknown): string => {
  try {
    read();
  } catch (error) {
    expect(error).to.be.instanceOf(AssertionError);
    return (error as Error).message;
  }
  return expect.fail('expected the read to fail the test');
};

describe('test/helpers/present.ts: reading what a test expects to be there', () => {
  it('nth reads an item, counting from the end when negative, and fails past either end', () => {
    expect(nth(['a', 'b', 'c'], 1)).to.equal('b');
    expect(nth(['a', 'b', 'c'], -1)).to.equal('c');
    expect(failure(() => nth(['a'], 1))).to.equal('expected an item at 1, the list holds 1');
    expect(failure(() => nth([], -1))).to.equal('expected an item at -1, the list holds 0');
  });

  it('firstOf gives the first items as a tuple and fails when the list holds fewer', () => {
    const [a, b] = firstOf(['a', 'b', 'c'], 2);
    expect([a, b]).to.deep.equal(['a', 'b']);
    expect(failure(() => firstOf(['a'], 2))).to.equal('expected at least 2 items, the list holds 1');
  });

  it('only gives the one item and fails on none or two, naming the list', () => {
    expect(only(['a'])).to.equal('a');
    expect(failure(() => only([], 'the rows'))).to.match(/^the rows: expected \[\] to have a length of 1/);
    expect(failure(() => only(['a', 'b']))).to.match(/^a list of one: /);
  });

  it('present passes a value through, 0 and the empty string included, and fails on undefined or null', () => {
    expect(present(0)).to.equal(0);
    expect(present('')).to.equal('');
    expect(failure(() => present(undefined, 'the token'))).to.equal('expected the token, got undefined');
    expect(failure(() => present(null))).to.equal('expected a value, got null');
  });

  it('captured gives the first group of a match and fails, quoting the text, when there is none', () => {
    expect(captured(/value="([^"]+)"/, '<input value="t0k">')).to.equal('t0k');
    expect(failure(() => captured(/value="([^"]+)"/, '<p>no form</p>'))).to.equal('expected /value="([^"]+)"/ to match "<p>no form</p>"');
  });
});
