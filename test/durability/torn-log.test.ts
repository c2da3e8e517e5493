import { expect } from 'chai';
import { mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';

const INBOX = '/supply-chain/data-space/inbox';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

/** Offsets at which each framed record (u32 length, u32 checksum, payload) of a log starts. */
function recordOffsets(log: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; at + 8 <= log.length; at += 8 + log.readUInt32BE(at)) offsets.push(at);
  return offsets;
}

/** Offset of the record that wrote consignment `globalId`. */
function recordOf(log: Buffer, globalId: string): number {
  const at = recordOffsets(log).find((o) =>
    log
      .subarray(o + 8, o + 8 + log.readUInt32BE(o))
      .toString('utf8')
      .includes(globalId),
  );
  if (at === undefined) throw new Error(`no record writes ${globalId}`);
  return at;
}

function newestLog(dir: string): string {
  return join(
    dir,
    readdirSync(dir)
      .filter((f) => /^changes-\d+\.log$/.test(f))
      .sort()
      .at(-1)!,
  );
}

describe('durability: a damaged change log at start-up', function () {
  this.timeout(40_000);
  let dir: string;
  let created: Record<string, any>[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-torn-'));
    const node = await ChildNode.start(dir);
    created = [];
    for (let i = 0; i < 4; i++) {
      const c = consignment();
      const res = await node.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, c));
      expect(res.status).to.equal(201);
      created.push(c);
    }
    await node.kill('SIGKILL');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function readable(node: ChildNode): Promise<boolean[]> {
    return Promise.all(created.map(async (c) => (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).status === 200));
  }

  it('drops a record cut in the middle with a warning and keeps everything before it', async () => {
    const path = newestLog(dir);
    const log = readFileSync(path);
    const last = recordOf(log, nth(created, 3).globalId);
    truncateSync(path, last + 8 + Math.floor(log.readUInt32BE(last) / 2));
    const node = await ChildNode.start(dir);
    try {
      expect(await readable(node)).to.deep.equal([true, true, true, false]);
      const warning = node.logLine('dropped a torn or corrupt tail of the change log');
      expect(warning).to.not.equal(undefined);
      expect(warning!.droppedBytes).to.be.above(0);
      // The log was cut back to whole records: new writes follow on and survive another restart.
      const c = consignment();
      expect((await node.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      await node.kill('SIGKILL');
      const again = await ChildNode.start(dir);
      expect((await again.as('forwarder', 'GET', consignmentPath(c.globalId))).status).to.equal(200);
      expect(again.logLine('dropped a torn or corrupt tail of the change log')).to.equal(undefined);
      await again.kill('SIGKILL');
    } finally {
      await node.kill('SIGKILL');
    }
  });

  it('drops a last record whose checksum does not match, and one cut inside its header', async () => {
    const path = newestLog(dir);
    const log = readFileSync(path);
    const last = recordOf(log, nth(created, 3).globalId);
    log[last + 8 + 20]! ^= 0xff;
    writeFileSync(path, log.subarray(0, last + 8 + log.readUInt32BE(last)));
    let node = await ChildNode.start(dir);
    expect(await readable(node)).to.deep.equal([true, true, true, false]);
    await node.kill('SIGKILL');

    const shorter = readFileSync(path);
    truncateSync(path, recordOf(shorter, nth(created, 2).globalId) + 5);
    node = await ChildNode.start(dir);
    expect(await readable(node)).to.deep.equal([true, true, false, false]);
    await node.kill('SIGKILL');
  });

  it('refuses to start when a record in the middle is damaged, rather than dropping the intact ones after it', async () => {
    const path = newestLog(dir);
    const log = readFileSync(path);
    log[recordOf(log, nth(created, 2).globalId) + 8 + 20]! ^= 0xff;
    writeFileSync(path, log);
    const error = await ChildNode.start(dir).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).to.match(/exited during start/);
    expect(error?.message).to.match(/damaged record followed by intact ones/);
    expect(readFileSync(path).length).to.equal(log.length); // nothing was cut
  });
});
