import { expect } from 'chai';
import { addressKey, LoginThrottle } from '../../../../src/core/auth/login-throttle.js';
import { readLoginConfig } from '../../../../src/core/auth/login-config.js';

describe('LoginThrottle', () => {
  const config = readLoginConfig({
    DATASPACE_LOGIN_ACCOUNT_ADDRESS_FAILURES: '2',
    DATASPACE_LOGIN_ACCOUNT_FAILURES: '4',
    DATASPACE_LOGIN_ADDRESS_FAILURES: '3',
  });

  it('locks (account, address) first, leaving the same account at another address free', async () => {
    const t = new LoginThrottle(config);
    expect(await t.attempt('a@x', '10.0.0.1')).to.equal(undefined);
    expect(await t.attempt('A@X', '10.0.0.1')).to.equal(undefined);
    expect((await t.attempt('a@x', '10.0.0.1'))?.limit).to.equal('account-address');
    expect(await t.attempt('a@x', '10.0.0.2')).to.equal(undefined);
  });

  it('locks an account tried from many addresses, and an address spraying many accounts', async () => {
    const t = new LoginThrottle(config);
    for (let i = 1; i <= 4; i++) expect(await t.attempt('b@x', `10.0.1.${i}`)).to.equal(undefined);
    expect((await t.attempt('b@x', '10.0.1.9'))?.limit).to.equal('account');
    const s = new LoginThrottle(config);
    for (let i = 0; i < 3; i++) expect(await s.attempt(`u${i}@x`, '10.0.2.1')).to.equal(undefined);
    expect((await s.attempt('u9@x', '10.0.2.1'))?.limit).to.equal('address');
  });

  it('gives a successful attempt back', async () => {
    const t = new LoginThrottle(config);
    for (let i = 0; i < 10; i++) {
      expect(await t.attempt('c@x', '10.0.3.1')).to.equal(undefined);
      await t.succeeded('c@x', '10.0.3.1');
    }
  });

  const keys: [string, string][] = [
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
  ];
  for (const [address, key] of keys) {
    it(`counts ${address} as ${key}`, () => expect(addressKey(address)).to.equal(key));
  }
});
