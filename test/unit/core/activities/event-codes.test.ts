import { expect } from 'chai';
import { codesSentBy, EVENT_CODES, eventCode, eventSignalTypes, ruleOf, STATUSES } from '../../../../src/core/activities/event-codes.js';

describe('event-code table', () => {
  // code → status it sets, signal/audience, sender, effect ('' where none)
  const rows: [string, string, string, string, string][] = [
    ['preNotification', 'preNotified', '', 'freightForwarder', ''],
    ['despatched', 'despatched', 'Despatch/borderAgencies', 'freightForwarder', ''],
    ['issuedDocument', '', '', 'freightForwarder', ''],
    ['onwardSharing', '', '', 'freightForwarder', ''],
    ['carrierBooking', 'carrierBooked', 'CarrierBookingNotification/routeOperators', 'freightForwarder', 'carrierOnConsignment'],
    ['locationOperatorMatch', 'operatorMatched', '', 'locationOperator', 'nodeStamps'],
    ['atLocationOfExit', 'atExit', '', 'freightForwarder', ''],
    ['leftLocationOfExit', 'leftExit', '', 'freightForwarder', ''],
    ['atLocationOfEntry', 'atEntry', '', 'freightForwarder', ''],
    ['leftLocationOfEntry', 'leftEntry', '', 'freightForwarder', ''],
    ['arrivedAtFinalDestination', 'delivered', '', 'freightForwarder', ''],
  ];

  it('has the codes of spec 6, in its order', () => {
    expect(Object.keys(EVENT_CODES)).to.deep.equal(rows.map(([code]) => code));
  });

  for (const [code, status, signal, sender, effect] of rows) {
    it(`svc:${code}: ${status || 'status stays'}, ${signal || 'no signal'}, sent by ${sender}${effect ? `, ${effect}` : ''}`, () => {
      const rule = ruleOf(`svc:${code}`)!;
      expect(rule.status ?? '').to.equal(status);
      expect(rule.signal ? `${rule.signal.type}/${rule.signal.audience}` : '').to.equal(signal);
      expect(rule.sender).to.equal(sender);
      expect(rule.effect ?? '').to.equal(effect);
    });
  }

  it('sets only statuses of the lifecycle, each by one code', () => {
    const set = rows.map(([, status]) => status).filter((s) => s !== '');
    expect(new Set(set).size).to.equal(set.length);
    for (const status of set) expect(STATUSES).to.include(status);
  });

  it('knows codes by svc: name or full IRI, nothing else', () => {
    expect(ruleOf('https://w3id.org/supply-chain-dataspace/ns#despatched')?.code).to.equal('despatched');
    for (const other of ['despatched', 'unece:despatched', 'svc:constructor', 'svc:toString', 'custom:x', undefined])
      expect(ruleOf(other)).to.equal(undefined);
    expect(eventCode('svc:despatched')).to.equal('despatched');
    expect(eventCode('https://w3id.org/supply-chain-dataspace/ns#despatched')).to.equal('despatched');
    expect(eventCode('unece:despatched')).to.equal(undefined);
    expect(eventCode(undefined)).to.equal(undefined);
  });

  it('lists the codes location operators send, and the signal types events raise', () => {
    expect(codesSentBy('locationOperator')).to.deep.equal(['svc:locationOperatorMatch']);
    expect(eventSignalTypes()).to.deep.equal(['Despatch', 'CarrierBookingNotification']);
  });
});
