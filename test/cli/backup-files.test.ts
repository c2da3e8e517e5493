import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, TEST_SEED, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, event, target } from '../helpers/payloads.js';

const CLI = resolve(projectRoot, 'dist', 'src', 'cli-main.js');
const SECRET = 'backup-files-secret-0123456789abcdef';
const BASE = '/supply-chain/data-space';
const consignmentPath = (id: string) => `${BASE}/consignments/${encodeURIComponent(id)}`;

/** The built `dataspace` command on `dataDir`, as an operator runs it. */
function dataspace(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, DATASPACE_DATA_DIR: dataDir, DATASPACE_SEED: TEST_SEED, JWT_SECRET: SECRET, DATASPACE_LOG: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', fail);
    child.once('exit', (code) => ok({ code, stdout, stderr }));
  });
}

/** A document whose file is inline and its own: `n` makes the bytes differ. */
const file = (n: number) => `%PDF-1.4\n% document file ${n}\n`;
const withFile = (identifier: string, n: number) =>
  document(identifier, { uRIId: `data:application/pdf;base64,${Buffer.from(file(n)).toString('base64')}` });

/** Every read a user makes of these consignments, their documents and files, with the node's address taken out. */
async function reads(node: TestNode, ids: string[]): Promise<unknown[]> {
  const token = await node.login('forwarder');
  const out: unknown[] = [];
  const json = async (path: string) => out.push((await node.as('forwarder', 'GET', path)).body);
  for (const id of ids) {
    await json(consignmentPath(id));
    const documents = (await node.as('forwarder', 'GET', `${consignmentPath(id)}/documents`)).body;
    out.push(documents);
    for (const doc of documents as { href: string; history: { href: string }[] }[]) {
      for (const href of [doc.href, ...doc.history.map((h: { href: string }) => h.href)]) {
        const res = await fetch(new URL(href, node.url), { headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' } });
        out.push({ href, status: res.status, bytes: Buffer.from(await res.arrayBuffer()).toString() });
      }
    }
  }
  await json(`${BASE}/consignments?limit=100`);
  await json(`${BASE}/documents?limit=100`);
  await json(`${BASE}/changes?after=&limit=100`);
  // Cursors are sealed with a fresh nonce each time they are written (docs/decisions.md): equal
  // positions read as different text, so they are compared as present, not by their text.
  const unsealed = (key: string, value: unknown) =>
    ['cursor', 'last', 'next', 'prev'].includes(key) && typeof value === 'string' ? '{cursor}' : value;
  const text = JSON.stringify(out)
    .split(node.url)
    .join('{base}')
    .replace(/after=[\w-]+/g, 'after={cursor}');
  return JSON.parse(text, unsealed) as unknown[];
}

describe('dataspace export / import: a backup is whole', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('carries the document files: every read, file and list is the same on the restored node', async () => {
    const source = tempDir('dataspace-backup-src-');
    const node = await TestNode.start({ JWT_SECRET: SECRET }, source);
    const published = [consignment(), consignment()];
    const ids = published.map((c) => c.globalId as string);
    for (const [i, c] of published.entries()) {
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)));
      expect(
        (await node.publish('forwarder', activity('Add', USERS.forwarder.org, withFile(`INV-${i}`, i), target(c)))).body.status,
      ).to.equal('completed');
    }
    // A second revision of one document: both revisions' files are kept and read back.
    const revised = { ...withFile('INV-0', 10), versionId: '2' };
    expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, revised, target(published[0]!)))).status).to.equal(201);
    const before = await reads(node, ids);
    const files = before.filter((r): r is { status: number; bytes: string } => typeof r === 'object' && r !== null && 'bytes' in r);
    expect(files.map((f) => f.status)).to.deep.equal([200, 200, 200]);
    expect(files.map((f) => f.bytes).join())
      .to.include('document file 0')
      .and.include('document file 1')
      .and.include('document file 10');
    await node.stop(false);

    const backup = join(tempDir('dataspace-backup-file-'), 'backup.nq');
    const exported = await dataspace(['export', backup], source);
    expect(exported.code, exported.stderr).to.equal(0);
    const summary = JSON.parse(exported.stdout);
    expect(summary.blobs.files).to.be.at.least(2);
    expect(summary.blobs.dir).to.equal(`${backup}.blobs`);
    expect(summary.leftOut.join(' ')).to.match(/JWT signing secret/);

    const restoredDir = join(tempDir('dataspace-backup-dst-'), 'data');
    const imported = await dataspace(['import', backup], restoredDir);
    expect(imported.code, imported.stderr).to.equal(0);
    expect(JSON.parse(imported.stdout).blobs.files).to.equal(summary.blobs.files);
    expect(existsSync(join(restoredDir, 'node.lock')), 'import frees the data dir').to.equal(false);

    const restored = await TestNode.start({ JWT_SECRET: SECRET }, restoredDir);
    try {
      expect(await reads(restored, ids)).to.deep.equal(before);
    } finally {
      await restored.stop(false);
    }
  });

  it('refuses to export a data dir that does not exist, with one line and a non-zero exit', async () => {
    const missing = join(tempDir('dataspace-backup-none-'), 'no-such-dir');
    const backup = join(tempDir('dataspace-backup-file-'), 'backup.nq');
    const answer = await dataspace(['export', backup], missing);
    expect(answer.code).to.equal(1);
    expect(answer.stderr.trim().split('\n')).to.deep.equal([
      `No node data in ${missing}: set DATASPACE_DATA_DIR to the data dir of the node to export`,
    ]);
    expect(existsSync(backup)).to.equal(false);
  });
});
