import { expect } from 'chai';
import type { Worker } from 'node:worker_threads';
import { ReaderPool } from '../../../../src/core/activities/reader-pool.js';
import { HttpError } from '../../../../src/core/errors.js';
import { createLogger } from '../../../../src/core/logger.js';
import { activity, consignment } from '../../../helpers/payloads.js';

const FORWARDER = 'did:web:forwarder.example';
const workerOf = (pool: ReaderPool): Worker => (pool as unknown as { threads: { worker: Worker }[] }).threads.at(0)!.worker;

describe('ReaderPool (payloads read on threads)', function () {
  this.timeout(30_000);
  let pool: ReaderPool;
  beforeEach(() => {
    pool = new ReaderPool(1, createLogger('silent'));
  });
  afterEach(async () => {
    await pool.close();
  });

  it('gives the quads of a valid activity and the HttpError of an invalid one', async () => {
    const quads = await pool.read(activity('Create', FORWARDER, consignment()));
    expect(quads.some((q) => q.predicate.value === 'https://vocabulary.uncefact.org/globalId')).to.equal(true);
    const refused = await pool.read(activity('Create', FORWARDER, consignment({ globalId: 'not-a-uuid' }))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).to.be.instanceOf(HttpError);
    expect((refused as HttpError).status).to.equal(422);
    expect((refused as HttpError).properties).to.have.property('results');
  });

  it('fails the activity a dying thread held, and reads the next one on a new thread', async () => {
    await pool.read(activity('Create', FORWARDER, consignment()));
    // Big enough to still be on the thread when it is stopped (hundreds of nested nodes to expand and validate).
    const big = consignment({
      includedConsignment: Array.from({ length: 400 }, (_, i) => ({
        type: 'Consignment',
        identifier: `ITEM-${i}`,
        summaryDescription: `part ${i}`,
      })),
    });
    const held = pool.read(activity('Create', FORWARDER, big)).then(
      () => 'read',
      () => 'failed',
    );
    await workerOf(pool).terminate();
    expect(await held).to.equal('failed');
    const quads = await pool.read(activity('Create', FORWARDER, consignment()));
    expect(quads.length).to.be.above(10);
  });

  it('started later: no thread and not ready until start(), a payload sent before is read after it', async () => {
    const later = new ReaderPool(1, createLogger('silent'), undefined, undefined, true);
    try {
      const threads = (later as unknown as { threads: unknown[] }).threads;
      expect(threads).to.have.length(0);
      let settled = false;
      const read = later.read(activity('Create', FORWARDER, consignment())).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(later.ready).to.equal(false);
      expect(settled).to.equal(false);
      later.start();
      later.start();
      expect(threads).to.have.length(1);
      expect((await read).length).to.be.above(10);
      expect(later.ready).to.equal(true);
    } finally {
      await later.close();
    }
  });

  it('refuses to read once closed', async () => {
    await pool.close();
    await pool.read({}).then(
      () => expect.fail(),
      (e: Error) => expect(e.message).to.match(/closed/),
    );
  });
});
