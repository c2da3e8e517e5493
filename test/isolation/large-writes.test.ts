import { expect } from 'chai';
import { activity, consignment } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { p99, publishOwn, readsOf, whileNoisy } from './neighbours.js';

const CREATES = 8;
const CONNECTIONS = 4;
const ITEMS = 640;
const READERS: UserName[] = ['forwarder', 'border', 'otherForwarder'];
/**
 * Generous for a shared 2-core machine at load 15–25, where a turn of ~10 ms of work takes several
 * times that in wall-clock time: with each large commit in one piece the loop stalled for 2.2 s and
 * A's p99 was 8.8 s; staged ahead of the lock, 0.6 s and 1.2 s at load 17 (bench:isolation, 96
 * Creates, bench/results/2026-12-07-staging.md); with the grouping, walk, decode and digest in slices
 * and small payloads' reader lane, 0.6–0.8 s and 0.5–1.3 s at load 12–15 for 48 Creates
 * (bench/results/2026-12-08-isolation.md). The bench prints the figures, and A's target (< 500 ms).
 */
const LOOP_BOUND_MS = 2_000;
const A_P99_BOUND_MS = 4_000;
const PIECE_BOUND_MS = 500;

/** A Create of ~150 KB: 640 items, each a blank node of its own with another for its country. */
function largeCreate(): Record<string, unknown> {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    type: 'ConsignmentItem',
    goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
    information: `Gearbox spare parts, crate ${i}, packed on pallets of twelve with foam inserts`,
    originCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
  }));
  return activity('Create', USERS.otherForwarder.org, consignment({ includedConsignmentItem: items }));
}

/**
 * Forwarder B's large Creates have their graphs staged before the ingest lock, a slice a turn of the
 * event loop (src/adapters/oxigraph/pre-staging.ts), and under the lock each commit applies in the
 * tick it is called: A's requests go on between the slices and never wait for a whole graph; A's data
 * reads the same for every reader, and B's consignments read back whole.
 */
describe('isolation: another organisation large writes are staged in slices before the lock', function () {
  this.timeout(300_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({ DATASPACE_READER_THREADS: '1' });
  });
  after(async () => {
    await node.stop();
  });

  it("B's Creates of ~150 KB are staged in many pieces and commit in one tick; A goes on, within bounds, its data unchanged", async () => {
    const witness = await publishOwn(node, 'forwarder');
    const working = await publishOwn(node, 'forwarder');
    const before = await readsOf(node, witness.globalId, READERS);
    const store = node.node.embedded!.store;
    const piecesBefore = store.sliced.pieces;
    // Turns of the loop from each of B's commits' call to its answer (a turn counter on setImmediate).
    const turnsPerCommit: number[] = [];
    let turn = 0;
    let counting = true;
    const count = (): void => {
      turn += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const commit = store.commit.bind(store);
    store.commit = async (change) => {
      const large = change.ops.some((op) => op.op === 'insert' && op.nquads.length > 100_000);
      const at = turn;
      const done = await commit(change);
      if (large) turnsPerCommit.push(turn - at);
      return done;
    };
    const token = await node.login('otherForwarder');
    const sent: Record<string, unknown>[] = [];
    try {
      const run = await whileNoisy(node, { user: 'forwarder', consignment: working }, async () => {
        const statuses: number[] = [];
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (sent.length < CREATES) {
              const body = largeCreate();
              sent.push(body);
              const res = await node.request('POST', '/supply-chain/data-space/inbox', { token, body });
              statuses.push(res.status);
            }
          }),
        );
        return statuses;
      });
      console.log(
        `      A's p99 ${p99(run.quiet.latencies).toFixed(0)} ms over ${run.quiet.latencies.length}; loop max ${run.maxLoopDelayMs.toFixed(0)} ms; longest staging piece ${store.sliced.longestPieceMs.toFixed(0)} ms`,
      );
      expect(run.noisy).to.deep.equal(Array.from({ length: CREATES }, () => 201));
      expect(run.quiet.failures).to.deep.equal([]);
      expect(turnsPerCommit).to.have.length(CREATES);
      // Under the lock, the staged graph is published: nothing of it is loaded there, so no turn passes.
      for (const turns of turnsPerCommit) expect(turns, 'turns of the loop one large commit spans').to.equal(0);
      expect(store.sliced.pieces - piecesBefore, "pieces B's graphs were staged in").to.be.at.least(10 * CREATES);
      // Each piece a staging ran in was ~16 KB of N-Quads, a few ms on an idle core.
      expect(store.sliced.longestPieceMs, 'longest piece of a large commit, ms').to.be.below(PIECE_BOUND_MS);
      expect(run.maxLoopDelayMs, 'longest event-loop stall, ms').to.be.below(LOOP_BOUND_MS);
      expect(p99(run.quiet.latencies), "A's p99, ms").to.be.below(A_P99_BOUND_MS);
    } finally {
      counting = false;
      store.commit = commit;
    }
    expect(await readsOf(node, witness.globalId, READERS)).to.deep.equal(before);
    // B's last consignment reads back whole: every item, each with its country.
    const last = (sent.at(-1) as { object: { globalId: string } }).object;
    const view = await node.as('otherForwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(last.globalId)}`);
    expect(view.status).to.equal(200);
    const items = (view.body as { includedConsignmentItem?: { originCountry?: unknown }[] }).includedConsignmentItem ?? [];
    expect(items).to.have.length(ITEMS);
    expect(items.every((item) => item.originCountry !== undefined)).to.equal(true);
  });
});
