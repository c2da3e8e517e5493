import { expect } from 'chai';
import { ConfigError } from '../../../../src/core/config-values.js';
import { readReplicaConfig } from '../../../../src/adapters/postgres/replica-config.js';

describe('replica settings (DATABASE_URL)', () => {
  const sparql = { DATASPACE_STORE: 'sparql' };

  it('is off without DATABASE_URL, whatever the store', () => {
    expect(readReplicaConfig({})).to.equal(undefined);
    expect(readReplicaConfig({ ...sparql, DATABASE_URL: '' })).to.equal(undefined);
  });

  it('reads the URL and the lease timings, with their defaults', () => {
    expect(readReplicaConfig({ ...sparql, DATABASE_URL: 'postgres://node:pw@db:5432/dataspace' })).to.deep.equal({
      databaseUrl: 'postgres://node:pw@db:5432/dataspace',
      checkMs: 1000,
      leaseMs: 3000,
      takeoverMs: 2000,
    });
    expect(
      readReplicaConfig({
        ...sparql,
        DATABASE_URL: 'postgresql://db/x',
        DATASPACE_REPLICA_CHECK_MS: '250',
        DATASPACE_REPLICA_TAKEOVER_MS: '0',
      }),
    ).to.include({ checkMs: 250, takeoverMs: 0 });
  });

  it('refuses the embedded store: it lives in one process', () => {
    expect(() => readReplicaConfig({ DATABASE_URL: 'postgres://db/x' })).to.throw(ConfigError, /needs DATASPACE_STORE=sparql/);
  });

  it('refuses what is not a PostgreSQL URL, without echoing a password', () => {
    expect(() => readReplicaConfig({ ...sparql, DATABASE_URL: 'mysql://u:secret@db/x' })).to.throw(ConfigError, /postgres:\/\//);
    expect(() => readReplicaConfig({ ...sparql, DATABASE_URL: 'not a url secret' }))
      .to.throw(ConfigError)
      .with.property('message')
      .that.does.not.include('secret');
    expect(() => readReplicaConfig({ ...sparql, DATABASE_URL: 'postgres://db/x', DATASPACE_REPLICA_CHECK_MS: '10' })).to.throw(
      ConfigError,
      /≥ 100/,
    );
  });
});
