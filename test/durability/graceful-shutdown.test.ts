import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const INBOX = '/supply-chain/data-space/inbox';

describe('durability: SIGTERM', function () {
  this.timeout(40_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-term-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes the requests in flight, refuses new connections, flushes and exits 0', async () => {
    const node = await ChildNode.start(dir);
    await node.login('forwarder');
    const payloads = Array.from({ length: 12 }, () => consignment());
    const inFlight = payloads.map((c) =>
      node.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, c)).then(
        (r) => r.status,
        () => 'no answer',
      ),
    );
    await new Promise((ok) => setTimeout(ok, 30));
    node.process.kill('SIGTERM');
    const statuses = await Promise.all(inFlight);
    const exit = await node.exited;
    expect(exit).to.deep.equal({ code: 0, signal: null });
    expect(node.logLine('stopped')).to.not.equal(undefined);
    // Every request either completed with 201 or never reached the node; none was cut off half way.
    for (const s of statuses) expect([201, 'no answer']).to.include(s);
    expect(statuses.filter((s) => s === 201).length).to.be.above(0);

    const again = await ChildNode.start(dir);
    try {
      for (const [i, c] of payloads.entries()) {
        const res = await again.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`);
        if (statuses[i] === 201) expect(res.status, c.globalId).to.equal(200);
      }
    } finally {
      await again.kill('SIGKILL');
    }
  });
});
