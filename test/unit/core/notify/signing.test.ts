import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { generateSecret, secretProblem, webhookHeaders } from '../../../../src/core/notify/signing.js';

describe('signing (Standard Webhooks)', () => {
  it('matches the test vector of the Standard Webhooks specification', () => {
    const headers = webhookHeaders(
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      '{"test": 2432232314}',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      new Date(1614265330 * 1000),
    );
    expect(headers).to.deep.equal({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('agrees with an HMAC computed by node:crypto over "{id}.{timestamp}.{body}"', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ id: 'urn:uuid:1', type: 'Despatch', text: 'ünïcödé ✓' });
    const at = new Date('2026-11-20T10:00:00.900Z');
    const headers = webhookHeaders('urn:uuid:1', body, secret, at);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`urn:uuid:1.${Math.floor(at.getTime() / 1000)}.${body}`)
      .digest('base64');
    expect(headers['webhook-timestamp']).to.equal(String(Math.floor(at.getTime() / 1000)));
    expect(headers['webhook-signature']).to.equal(`v1,${expected}`);
  });

  it('leaves the signature out when there is no secret', () => {
    expect(webhookHeaders('a', '{}', undefined, new Date(0))).to.deep.equal({ 'webhook-id': 'a', 'webhook-timestamp': '0' });
  });

  it('generates 32-byte whsec_ secrets, each different', () => {
    const a = generateSecret();
    expect(a).to.match(/^whsec_/);
    expect(Buffer.from(a.slice(6), 'base64')).to.have.length(32);
    expect(generateSecret()).to.not.equal(a);
    expect(secretProblem(a)).to.equal(undefined);
  });

  const bad = ['', 'whsec_', 'c2VjcmV0', 'whsec_not base64', 'whsec_abc', 'whsec_====', 'WHSEC_c2VjcmV0'];
  for (const secret of bad) {
    it(`refuses the secret ${JSON.stringify(secret)}`, () => {
      expect(secretProblem(secret)).to.be.a('string');
    });
  }
});
