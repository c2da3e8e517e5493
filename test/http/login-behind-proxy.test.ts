import { expect } from 'chai';
import { ConfigError, readConfig } from '../../src/config.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';

const LOGIN = '/authentication/login';
const login = (node: TestNode, user: UserName, password: string, forwardedFor?: string) =>
  node.request('POST', LOGIN, {
    body: { email: USERS[user].email, password },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
const NAMES = Object.keys(USERS) as UserName[];

describe('login throttling behind a reverse proxy (DATASPACE_TRUSTED_PROXIES)', () => {
  const LIMITS = { DATASPACE_LOGIN_ADDRESS_FAILURES: '5', DATASPACE_LOGIN_ACCOUNT_ADDRESS_FAILURES: '3' };

  it('never locks an address for successful logins: 60 in a row from one address all get in', async () => {
    const node = await TestNode.start(LIMITS);
    try {
      for (let i = 0; i < 60; i++) {
        const user = NAMES[i % NAMES.length]!;
        expect((await login(node, user, USERS[user].password)).status, `login ${i}`).to.equal(200);
      }
      // Failures still count: the sixth wrong password from this address is refused.
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await login(node, NAMES[i]!, 'wrong')).status);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
    } finally {
      await node.stop();
    }
  });

  it('counts each client behind a trusted proxy by its own address: one locked client locks nobody else', async () => {
    const node = await TestNode.start({ ...LIMITS, DATASPACE_TRUSTED_PROXIES: 'loopback' });
    try {
      for (let i = 0; i < 5; i++) expect((await login(node, NAMES[i]!, 'wrong', '203.0.113.5')).status).to.equal(401);
      const locked = await login(node, 'forwarder', USERS.forwarder.password, '203.0.113.5');
      expect(locked.status).to.equal(429);
      expect(locked.body.message).to.match(/from your address/);
      expect((await login(node, 'forwarder', USERS.forwarder.password, '203.0.113.6')).status, 'another client of the same proxy').to.equal(
        200,
      );
      expect(
        (await login(node, 'border', USERS.border.password, '198.51.100.1, 203.0.113.7')).status,
        'the address the proxy appended counts',
      ).to.equal(200);
    } finally {
      await node.stop();
    }
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy, so a client cannot pick its address', async () => {
    const node = await TestNode.start({ ...LIMITS, DATASPACE_TRUSTED_PROXIES: '192.0.2.1' });
    try {
      for (let i = 0; i < 5; i++) expect((await login(node, NAMES[i]!, 'wrong', `203.0.113.${i + 10}`)).status).to.equal(401);
      expect((await login(node, 'forwarder', USERS.forwarder.password, '203.0.113.99')).status).to.equal(429);
    } finally {
      await node.stop();
    }
  });

  it('refuses a malformed DATASPACE_TRUSTED_PROXIES at start', () => {
    expect(() => readConfig({ DATASPACE_TRUSTED_PROXIES: 'loopback, not-an-address' })).to.throw(
      /DATASPACE_TRUSTED_PROXIES: "not-an-address"/,
    );
    expect(() => readConfig({ DATASPACE_TRUSTED_PROXIES: '10.0.0.0/8/1' })).to.throw(ConfigError);
    expect(readConfig({ DATASPACE_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8, ::1' }).trustedProxies).to.equal('loopback,10.0.0.0/8,::1');
    expect(readConfig({}).trustedProxies).to.equal(false);
  });
});
