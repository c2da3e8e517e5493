import { expect } from 'chai';
import { EVENT_CODES } from '../../../../src/core/activities/event-codes.js';
import { advance, STATUSES } from '../../../../src/core/activities/status.js';

describe('consignment status', () => {
  // current status, event typeCode → next status (undefined: unchanged)
  const table: [string, string | undefined, string | undefined][] = [
    ['published', 'svc:preNotification', 'preNotified'],
    ['published', 'svc:carrierBooking', 'carrierBooked'],
    ['carrierBooked', 'svc:locationOperatorMatch', 'operatorMatched'],
    ['operatorMatched', 'svc:despatched', 'despatched'],
    ['published', 'svc:despatched', 'despatched'],
    ['despatched', 'svc:atLocationOfExit', 'atExit'],
    ['atExit', 'svc:leftLocationOfExit', 'leftExit'],
    ['leftExit', 'svc:atLocationOfEntry', 'atEntry'],
    ['atEntry', 'svc:leftLocationOfEntry', 'leftEntry'],
    ['leftEntry', 'svc:arrivedAtFinalDestination', 'delivered'],
    ['published', 'https://w3id.org/supply-chain-dataspace/ns#despatched', 'despatched'],
    // never backwards
    ['despatched', 'svc:carrierBooking', undefined],
    ['despatched', 'svc:despatched', undefined],
    ['delivered', 'svc:atLocationOfExit', undefined],
    ['operatorMatched', 'svc:locationOperatorMatch', undefined],
    // events that do not move a consignment
    ['published', 'svc:issuedDocument', undefined],
    ['published', 'svc:onwardSharing', undefined],
    ['published', 'custom:somethingElse', undefined],
    ['published', 'despatched', undefined],
    ['published', undefined, undefined],
    // a status this version does not know ranks lowest
    ['legacy', 'svc:preNotification', 'preNotified'],
  ];
  for (const [current, typeCode, next] of table) {
    it(`${current} + ${typeCode} → ${next ?? 'unchanged'}`, () => {
      expect(advance(current, typeCode)).to.equal(next);
    });
  }

  it('has every status reachable from published, in order, each set by one code', () => {
    const reached = ['published'];
    for (const status of STATUSES.slice(1)) {
      const codes = Object.entries(EVENT_CODES)
        .filter(([, rule]) => 'status' in rule && rule.status === status)
        .map(([code]) => code);
      expect(codes, status).to.have.length(1);
      reached.push(advance(reached.at(-1)!, `svc:${codes[0]}`)!);
    }
    expect(reached).to.deep.equal([...STATUSES]);
  });
});
