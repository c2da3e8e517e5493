import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { untilTrue } from '../helpers/until.js';
import { publishers, verify, type Sent } from './publishers.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const INBOX = '/supply-chain/data-space/inbox';

describe('durability: SIGKILL under concurrent load loses nothing acknowledged', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-crash-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Kill points: early (log only), later, and with tiny snapshot thresholds so kills land while
  // snapshots are written and logs rotated.
  const runs: { name: string; killAfter: number; env: Record<string, string> }[] = [
    { name: 'after 5 acknowledged, log only', killAfter: 5, env: {} },
    { name: 'after 40 acknowledged, with a snapshot every 16 KiB of log', killAfter: 40, env: { DATASPACE_SNAPSHOT_LOG_BYTES: '16384' } },
  ];
  for (const run of runs) {
    it(`keeps every acknowledged activity: ${run.name}`, async () => {
      const first = await ChildNode.start(dir, run.env);
      const load = publishers(first, 6);
      await Promise.race([untilTrue(() => load.acknowledged() >= run.killAfter, 40_000), load.done]);
      await first.kill('SIGKILL');
      await load.stop();
      expect(load.acknowledged()).to.be.at.least(run.killAfter);

      const second = await ChildNode.start(dir, run.env);
      try {
        const result = await verify(second, load.sent);
        expect(result.acknowledged).to.be.at.least(run.killAfter);
        // And it goes on accepting writes after the recovery.
        const more = consignment();
        expect((await second.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, more))).status).to.equal(201);
      } finally {
        await second.kill('SIGKILL');
      }
    });
  }

  it('kills twice in a row, with snapshots, and still loses nothing', async () => {
    const env = { DATASPACE_SNAPSHOT_LOG_BYTES: '8192' };
    const sent: Sent[] = [];
    const hasSnapshot = () => readdirSync(dir).some((f) => /^snapshot-\d{8}\.nq$/.test(f));
    for (const [round, killAfter] of [25, 25].entries()) {
      const node = await ChildNode.start(dir, env);
      const load = publishers(node, 4);
      // Snapshots are written in the background, so on a fast machine 25 answers can come before the
      // first one is complete: the second kill waits for one, so it always strikes a node with snapshots.
      await Promise.race([untilTrue(() => load.acknowledged() >= killAfter && (round === 0 || hasSnapshot()), 40_000), load.done]);
      await node.kill('SIGKILL');
      await load.stop();
      sent.push(...load.sent);
    }
    expect(hasSnapshot()).to.equal(true);
    const last = await ChildNode.start(dir, env);
    try {
      const result = await verify(last, sent);
      expect(result.acknowledged).to.be.at.least(50);
      expect(last.logLine('store recovered')!.snapshotGeneration).to.be.a('number');
    } finally {
      await last.kill('SIGKILL');
    }
  });
});
