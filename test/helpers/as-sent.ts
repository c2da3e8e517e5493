import { expect } from 'chai';
import type { Json } from './payloads.js';

const isNode = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v) && !('@value' in v);
const literalKey = (v: unknown): string =>
  typeof v === 'object' && v !== null ? JSON.stringify(Object.fromEntries(Object.entries(v).sort())) : JSON.stringify(v);

/**
 * Holds that a read view gives back every field of `sent` under the key it was sent with, in the same
 * JSON shape, key by key (docs/decisions.md, "Read view: fields as sent"): value objects as value
 * objects, arrays in the order sent (of nodes and of plain values alike), objects named by id with
 * their other fields. A one-item array of plain values may read as its value (JSON-LD compaction).
 * Keys the view adds are not looked at; `@context` is not data. The consignment's own
 * `includedConsignment` is read from the view's `includedConsignments` (spec 2.9, docs/decisions.md).
 */
export function expectAsSent(read: unknown, sent: unknown, path = '$'): void {
  if (Array.isArray(sent)) {
    if (sent.some(isNode)) {
      expect(read, `${path} is an array`).to.be.an('array').with.length(sent.length);
      sent.forEach((item, i) => expectAsSent((read as unknown[])[i], item, `${path}[${i}]`));
      return;
    }
    const got = Array.isArray(read) ? read : [read];
    expect(got.map(literalKey), path).to.deep.equal(sent.map(literalKey));
    return;
  }
  if (isNode(sent)) {
    expect(read, `${path} is an object`).to.be.an('object');
    for (const [key, value] of Object.entries(sent)) {
      if (key === '@context') continue;
      const readKey = path === '$' && key === 'includedConsignment' ? 'includedConsignments' : key;
      expect(read, `${path} has ${readKey}`).to.have.property(readKey);
      expectAsSent((read as Json)[readKey], value, `${path}.${key}`);
    }
    return;
  }
  expect(read, path).to.deep.equal(sent);
}
