import { expect } from 'chai';
import { digestSteps, payloadDigest } from '../../../../src/core/activities/payload-digest.js';
import { sliceOf } from '../../../../src/core/util/slices.js';
import { readFixtures } from '../../../helpers/fixtures.js';

/** Digests kept with applied activity ids must never change: these were taken before the digest was sliced. */
const KEPT: [unknown, string][] = [
  [
    { b: 2, a: [1, 'x', null, true, { z: undefined, y: [] }], é: 'café \u{1F600}', n: -1.5e-7 },
    'cI8je7T4BonX1DNXDlnkHE-KDT1t-RqLPeMQLFTpqr4',
  ],
  [[], 'T1PNoYwrqgwDVLtfmj7L5e0Sq02OEbqHPC8RFhICuUU'],
  ['just text', 'LZd5ndCx83Jd0RCEMV2Le81CUOLmWarfmyfNOe4dlSE'],
  [
    {
      '@context': ['https://www.w3.org/ns/activitystreams'],
      type: 'Create',
      id: 'urn:uuid:1',
      object: { k: { j: { i: [{}, [[]], ''] } } },
    },
    'SsGdOocO2cGbN0wPA-1Dn5rEtH4TtKQxe6SCpdc7N6c',
  ],
];

function sliced(json: unknown): { digest: string; slices: number } {
  const steps = digestSteps(json);
  for (let n = 1; ; n++) {
    const done = sliceOf(steps, 0);
    if (done) return { digest: done.value, slices: n };
  }
}

describe('payload digest (what a retried activity id is compared by)', () => {
  it('gives the digests it always gave, whole or in slices', () => {
    for (const [json, digest] of KEPT) {
      expect(payloadDigest(json)).to.equal(digest);
      expect(sliced(json).digest).to.equal(digest);
    }
  });

  it('ignores key order and undefined keys, and tells other values apart', () => {
    expect(payloadDigest({ a: 1, b: [2, { c: 3, d: 4 }] })).to.equal(payloadDigest({ b: [2, { d: 4, c: 3 }], a: 1, e: undefined }));
    expect(payloadDigest({ a: [1, 2] })).to.not.equal(payloadDigest({ a: [2, 1] }));
    expect(payloadDigest({ a: '1' })).to.not.equal(payloadDigest({ a: 1 }));
    expect(payloadDigest({ 'a,"b":': 1 })).to.not.equal(payloadDigest({ a: 1, b: 1 }));
  });

  it('digests a large activity in many slices, the same as in one piece', () => {
    const large = {
      type: 'Create',
      object: { items: Array.from({ length: 900 }, (_, i) => ({ information: `crate ${i} "quoted"\n`, n: i, country: { id: 'GB' } })) },
    };
    const { digest, slices } = sliced(large);
    expect(slices).to.be.above(20);
    expect(digest).to.equal(payloadDigest(large));
    for (const { name, json } of readFixtures('valid')) expect(sliced(json).digest, name).to.equal(payloadDigest(json));
  });
});
