import { expect } from 'chai';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const INBOX = '/supply-chain/data-space/inbox';
const read = (node: ChildNode, globalId: string) =>
  node.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`);

describe('durability: one node per data dir', function () {
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second node on the data dir, naming the holder; after a kill -9 the next one starts', async () => {
    const first = await ChildNode.start(dir);
    const before = consignment();
    expect((await first.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, before))).status).to.equal(201);

    const second = await ChildNode.refused(dir);
    expect(second.code).to.equal(1);
    const lines = second.stderr.trim().split('\n');
    expect(lines, second.stderr).to.have.length(1);
    expect(lines[0]).to.include(`in use by process ${first.process.pid}`).and.include('DATASPACE_DATA_DIR');
    expect(second.stderr).to.not.match(/\n\s+at /);

    // The first node kept serving and writing while the second was refused.
    const during = consignment();
    expect((await first.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, during))).status).to.equal(201);
    expect((await read(first, before.globalId)).status).to.equal(200);

    await first.kill('SIGKILL');
    expect(existsSync(join(dir, 'node.lock')), 'the dead holder left its lock').to.equal(true);
    const third = await ChildNode.start(dir);
    try {
      for (const c of [before, during]) expect((await read(third, c.globalId)).status, c.globalId).to.equal(200);
    } finally {
      await third.kill('SIGTERM');
    }
    expect(existsSync(join(dir, 'node.lock')), 'a node that stopped frees its data dir').to.equal(false);
  });
});
