import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, TEST_SEED, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const run = promisify(execFile);
/** The `dataspace` bin (src/cli-main.ts), as `npm run export` and `npm run import` run it. */
const CLI = resolve(projectRoot, 'dist', 'src', 'cli-main.js');
const SECRET = 'export-secret-0123456789abcdef';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

async function views(node: TestNode, ids: string[]) {
  const out: unknown[] = [];
  for (const id of ids) {
    out.push((await node.as('forwarder', 'GET', consignmentPath(id))).body);
    out.push((await node.as('forwarder', 'GET', `${consignmentPath(id)}/documents`)).body);
  }
  out.push((await node.as('forwarder', 'GET', '/supply-chain/data-space/consignments?limit=100')).body);
  out.push((await node.as('forwarder', 'GET', '/supply-chain/data-space/documents?limit=100')).body);
  // Links carry each node's own address: compare them without it.
  return JSON.parse(JSON.stringify(out).split(node.url).join('{base}'));
}

describe('backup: npm run export / npm run import round trip', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const format of ['nq', 'trig']) {
    it(`gives identical views after export to .${format} and import into an empty data dir`, async () => {
      const source = tempDir('dataspace-export-src-');
      const node = await TestNode.start({ JWT_SECRET: SECRET }, source);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const c = consignment();
        ids.push(c.globalId);
        await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
        await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
        await node.publish('forwarder', activity('Add', USERS.forwarder.org, document(`INV-${i}`), target(c)));
        await node.publish('forwarder', activity('Update', USERS.forwarder.org, { ...c, summaryDescription: `changed ${i}` }));
      }
      const before = await views(node, ids);
      await node.stop(false);

      const file = join(tempDir('dataspace-export-file-'), `backup.${format}`);
      const env = { ...process.env, DATASPACE_DATA_DIR: source, DATASPACE_SEED: TEST_SEED, JWT_SECRET: SECRET, DATASPACE_LOG: 'silent' };
      const exported = JSON.parse((await run(process.execPath, [CLI, 'export', file], { env })).stdout);
      expect(exported.graphs).to.be.at.least(12); // 3 × (state, event, document) + registry, metadata, activity log
      const text = readFileSync(file, 'utf8');
      expect(text).to.include('scrypt$');
      for (const user of Object.values(USERS)) expect(text).to.not.include(user.password);

      const target_ = tempDir('dataspace-export-dst-');
      const imported = JSON.parse(
        (await run(process.execPath, [CLI, 'import', file], { env: { ...env, DATASPACE_DATA_DIR: target_ } })).stdout,
      );
      expect(imported.quads).to.be.above(100);
      expect(readdirSync(target_)).to.include('snapshot-00000001.nq');
      // A second import into the same dir is refused: nothing is ever merged by accident.
      const again = await run(process.execPath, [CLI, 'import', file], { env: { ...env, DATASPACE_DATA_DIR: target_ } }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(again?.message).to.match(/already holds a store/);

      const restored = await TestNode.start({ JWT_SECRET: SECRET }, target_);
      try {
        expect(await views(restored, ids)).to.deep.equal(before);
        // And it takes new writes.
        expect((await restored.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()))).status).to.equal(201);
      } finally {
        await restored.stop(false);
      }
    });
  }
});
