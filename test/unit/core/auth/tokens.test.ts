import { expect } from 'chai';
import { TokenService } from '../../../../src/core/auth/tokens.js';
import { hashPassword, verifyPassword } from '../../../../src/core/auth/passwords.js';

describe('TokenService', () => {
  const tokens = new TokenService('secret-secret-secret', 60, 'node');

  it('round-trips claims and gives the expiry in milliseconds', async () => {
    const now = Date.now();
    const issued = await tokens.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' }, now);
    expect(issued.expiry).to.equal((Math.floor(now / 1000) + 60) * 1000);
    expect(await tokens.verify(issued.token)).to.deep.equal({
      sub: 'a@b.example',
      org: 'did:web:b.example',
      gen: 'e1',
      jti: issued.jti,
      expiry: issued.expiry,
      // A login's token begins its session: named by its own id, begun at its issue.
      sid: issued.jti,
      auth: Math.floor(now / 1000),
    });
    expect(issued.jti).to.match(/^[A-Za-z0-9_-]{16}$/);
    expect((await tokens.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' }, now)).jti).to.not.equal(issued.jti);
  });

  it('carries a session through its refreshes and ends none of them later than the session', async () => {
    const bounded = new TokenService('secret-secret-secret', 60, 'node', 100);
    const now = Date.now();
    const login = await bounded.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' }, now);
    const auth = Math.floor(now / 1000);
    const later = await bounded.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1', sid: login.jti, auth }, now + 70_000);
    expect(later.expiry).to.equal((auth + 100) * 1000);
    expect(await bounded.verify(later.token, now + 70_000)).to.include({ sid: login.jti, auth });
  });

  it('refuses a token past its expiry and one from another issuer', async () => {
    const old = await tokens.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' }, Date.now() - 120_000);
    expect(await tokens.verify(old.token)).to.equal(undefined);
    const other = await new TokenService('secret-secret-secret', 60, 'other-node').issue({ sub: 'a', org: 'b', gen: 'e1' });
    expect(await tokens.verify(other.token)).to.equal(undefined);
  });

  it('refuses a token it verified before once that token has expired', async () => {
    const now = Date.now();
    const issued = await tokens.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' }, now);
    expect(await tokens.verify(issued.token, now)).to.include({ sub: 'a@b.example', gen: 'e1' });
    expect(await tokens.verify(issued.token, now + 30_000)).to.include({ sub: 'a@b.example', gen: 'e1' });
    expect(await tokens.verify(issued.token, issued.expiry)).to.equal(undefined);
    expect(await tokens.verify(issued.token, now)).to.not.equal(undefined);
  });

  it('refuses a tampered copy of a token it verified before', async () => {
    const issued = await tokens.issue({ sub: 'a@b.example', org: 'did:web:b.example', gen: 'e1' });
    expect(await tokens.verify(issued.token)).to.not.equal(undefined);
    const [header, payload = '', signature] = issued.token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), org: 'did:web:evil.example' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).to.equal(undefined);
  });
});

describe('passwords', () => {
  it('hashes with scrypt and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).to.match(/^scrypt\$16384\$8\$1\$/);
    expect(hash).to.not.contain('correct horse');
    expect(await verifyPassword('correct horse', hash)).to.equal(true);
    expect(await verifyPassword('wrong', hash)).to.equal(false);
    expect(await verifyPassword('x', 'md5$abc')).to.equal(false);
  });
});
