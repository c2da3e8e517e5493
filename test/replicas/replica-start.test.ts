import { expect } from 'chai';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { NodeProcess } from '../helpers/node-process.js';
import { scratchDir } from '../helpers/scratch-dirs.js';

describe('replicas: starting without PostgreSQL', function () {
  this.timeout(30_000);

  it('stops with exit code 1 and says why when PostgreSQL cannot be reached', async () => {
    const nothing = await freePort();
    const replica = await NodeProcess.start({
      DATASPACE_STORE: 'sparql',
      DATASPACE_SPARQL_QUERY_URL: 'http://127.0.0.1:9/sparql',
      DATASPACE_SPARQL_UPDATE_URL: 'http://127.0.0.1:9/sparql',
      DATABASE_URL: `postgres://node:not-this-password@127.0.0.1:${nothing}/dataspace`,
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-replica-'), 'data'),
    });
    expect(await replica.exited()).to.equal(1);
    expect(replica.output).to.include('could not join the replica set in PostgreSQL');
    expect(replica.output).not.to.include('not-this-password');
  });
});
