import { expect } from 'chai';

/**
 * What every source of the JWT secret answers (OwnState.jwtSecret): made once, then the same for
 * every later ask, and for another process on the same state (a restart, another replica), so a
 * token issued before stays valid. `make` gives fresh state; `again` the secret as another process reads it.
 */
export function jwtSecretContract(make: () => Promise<{ secret: () => Promise<string>; again: () => Promise<string> }>): void {
  describe('JWT secret contract', () => {
    it('makes one long random secret and answers it every time, to another process too', async () => {
      const { secret, again } = await make();
      const first = await secret();
      expect(first).to.match(/^[A-Za-z0-9_-]{64}$/);
      expect(await secret()).to.equal(first);
      expect(await again()).to.equal(first);
    });

    it('makes a different secret for different state', async () => {
      const [one, other] = await Promise.all([make(), make()]);
      expect(await one.secret()).to.not.equal(await other.secret());
    });
  });
}
