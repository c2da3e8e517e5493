import { expect } from 'chai';
import { LeaseConnection } from '../../src/adapters/postgres/lease-connection.js';
import { PostgresReach } from '../../src/adapters/postgres/postgres-reach.js';
import { Postgres, postgresMissing } from '../helpers/postgres.js';
import { recordingLogger } from '../helpers/recording-logger.js';

/** Holds the event loop for `ms`, as a loaded machine or a long synchronous task does. */
function starve(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('replicas: the writer lease connection bounds a statement without giving up an answer that came in time', function () {
  this.timeout(60_000);
  let postgres: Postgres | undefined;

  after(() => postgres?.stop());

  it('reads an answer that arrived while the event loop was held past the bound, and gives up a statement PostgreSQL leaves unanswered', async function () {
    if (postgresMissing()) this.skip(); // reason: no PostgreSQL here; .ci/run installs it from Debian
    postgres = await Postgres.start();
    const reach = new PostgresReach(0);
    const connection = new LeaseConnection(postgres.url, 200, recordingLogger(), reach);
    expect(await connection.tried(async (client) => (await client.query('SELECT 1 AS one')).rows[0])).to.deep.equal({ one: 1 });
    // The answer arrives within a millisecond, but the loop is held for 400 ms: when it runs again the
    // 200 ms bound and the answer are both due. The answer wins.
    const answered = await connection.tried((client) => {
      const query = client.query('SELECT 2 AS two');
      setImmediate(() => starve(400));
      return query.then((result) => result.rows[0]);
    });
    expect(answered, 'an answer that came in time').to.deep.equal({ two: 2 });
    expect(reach.reachable()).to.equal(true);
    // A statement PostgreSQL answers after the bound is given up, and the next goes on a new connection.
    expect(await connection.tried((client) => client.query('SELECT pg_sleep(1)'))).to.equal(undefined);
    expect(reach.reachable(), 'silence makes the replica unreachable').to.equal(false);
    expect(await connection.tried(async (client) => (await client.query('SELECT 3 AS three')).rows[0])).to.deep.equal({ three: 3 });
    expect(reach.reachable()).to.equal(true);
    await connection.close();
  });
});
