import { expect } from 'chai';
import { ReaderPool } from '../../../../src/core/activities/reader-pool.js';
import { createLogger } from '../../../../src/core/logger.js';
import { activity, consignment } from '../../../helpers/payloads.js';

/** The reader pool never leaves a thread busy: a job that cannot be sent or that dies fails alone. */
describe('ReaderPool never leaves a thread busy', function () {
  this.timeout(60_000);
  let pool: ReaderPool;
  before(() => {
    pool = new ReaderPool(1, createLogger('silent'));
  });
  after(async () => {
    await pool.close();
  });

  const valid = () => activity('Create', 'did:web:forwarder.example', consignment());

  it('refuses JSON over the depth limit before handing it to the thread, and the thread keeps working', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = { consignor: deep };
    const error = await pool.read({ ...valid(), object: deep }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).to.include({ status: 400 });
    expect((await pool.read(valid())).length).to.be.above(10);
  });

  it('fails a payload that cannot be sent to the thread alone, and frees the slot', async () => {
    const error = await pool.read({ ...valid(), odd: () => 1 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).to.include({ status: 400 });
    expect((await pool.read(valid())).length).to.be.above(10);
  });

  it('replaces a thread that runs past the time limit, failing only that payload', async () => {
    const slow = new ReaderPool(1, createLogger('silent'), 1);
    try {
      const error = await slow.read(valid()).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).to.include({ status: 503 });
    } finally {
      await slow.close();
    }
  });
});
