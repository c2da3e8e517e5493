import { expect } from 'chai';
import { TestNode, type UserName } from '../helpers/test-node.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';
import { externalSparqlUrl } from '../helpers/external-store.js';
import { createBurst, LoopWatch, publishOwn, readsOf } from './neighbours.js';

/**
 * A burst of writes with no read in between, then the first read: the read side follows each write at
 * commit, so the first read after the burst costs what any read costs. ISOLATION_CREATES sizes the burst
 * (a few thousand by default, what a shared 2-core machine does in well under a minute; the bench row
 * "first read after 10,000 Creates" runs the full size).
 */
const CREATES = Number(process.env.ISOLATION_CREATES ?? 3000);
const VIRTUOSO_CREATES = Math.ceil(CREATES / 2);
/**
 * Generous bounds on a shared 2-core machine: A's first read; the event loop's longest stall while
 * the first read is answered (the catch-up held it 0.7 s after 2,000 Creates and 6.5 s after 5,000);
 * and over the burst itself (payloads are read on the test's thread here, and its garbage collected;
 * 1.2 s seen on Virtuoso at load average 22).
 */
const FIRST_READ_BOUND_MS = 1000;
const READ_LOOP_BOUND_MS = 300;
const BURST_LOOP_BOUND_MS = 2000;
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder'];

async function firstReadAfterBurst(node: TestNode, creates: number): Promise<void> {
  const witness = await publishOwn(node, 'forwarder');
  const before = await readsOf(node, witness.globalId, READERS);
  const token = await node.login('forwarder');
  const burstWatch = new LoopWatch().start();
  const statuses = await createBurst(node, 'otherForwarder', creates);
  const burstLoopMs = burstWatch.stop();
  const readWatch = new LoopWatch().start();
  const started = performance.now();
  const list = await node.request('GET', '/supply-chain/data-space/consignments?limit=5', { token });
  const firstReadMs = performance.now() - started;
  const readLoopMs = readWatch.stop();
  console.log(
    `      ${creates} Creates, then A's first read: ${firstReadMs.toFixed(0)} ms; longest event-loop stall ${readLoopMs.toFixed(0)} ms during the read, ${burstLoopMs.toFixed(0)} ms during the burst`,
  );
  expect(statuses.filter((s) => s !== 201)).to.deep.equal([]);
  expect(list.status).to.equal(200);
  expect(list.body.map((c: { globalId: string }) => c.globalId)).to.include(witness.globalId);
  expect(firstReadMs).to.be.below(FIRST_READ_BOUND_MS);
  expect(readLoopMs).to.be.below(READ_LOOP_BOUND_MS);
  expect(burstLoopMs).to.be.below(BURST_LOOP_BOUND_MS);
  expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);
  // B's consignments are all there for B: the read side missed none of the burst.
  const own = await node.as('otherForwarder', 'GET', `/supply-chain/data-space/consignments?limit=${Math.min(creates, 500)}`);
  expect(own.body).to.have.length(Math.min(creates, 500));
}

describe('isolation: a burst of writes and the first read after it', function () {
  this.timeout(300_000);

  it(`B's ${CREATES} Creates with no read in between leave A's first read fast and the loop free (embedded store)`, async () => {
    const node = await TestNode.start();
    try {
      await firstReadAfterBurst(node, CREATES);
    } finally {
      await node.stop();
    }
  });

  // Half the burst: Creates on Virtuoso run at a fraction of the embedded rate (~8–60/s here).
  it(`B's ${VIRTUOSO_CREATES} Creates with no read in between leave A's first read fast and the loop free (Virtuoso)`, async function () {
    const missing = virtuosoMissing();
    if (missing || externalSparqlUrl()) this.skip(); // reason: no virtuoso-t here (.ci/run installs it), or already inside the external-store run
    this.timeout(600_000);
    const virtuoso = await Virtuoso.start({ buffers: 50_000 });
    try {
      const node = await TestNode.start({
        DATASPACE_STORE: 'sparql',
        DATASPACE_SPARQL_QUERY_URL: virtuoso.sparqlUrl,
        DATASPACE_SPARQL_UPDATE_URL: virtuoso.sparqlUrl,
      });
      try {
        await firstReadAfterBurst(node, VIRTUOSO_CREATES);
      } finally {
        await node.stop();
      }
    } finally {
      await virtuoso.stop();
    }
  });
});
