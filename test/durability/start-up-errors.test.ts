import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { ChildNode } from './child-node.js';
import { TEST_SEED } from '../helpers/test-node.js';

const CLI = resolve(projectRoot, 'dist', 'src', 'cli-main.js');

/** The message of the one line a refused start wrote: a JSON log line, no stack. */
function onlyMessage(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).to.have.length(1);
  return (JSON.parse(lines[0]!) as { msg: string }).msg;
}

describe('start-up errors say what to set', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-start-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a port in use: one line naming PORT (dataspace serve --port)', async () => {
    const taken = createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', join(dir, 'data')], {
        env: { PATH: process.env.PATH, HOST: '127.0.0.1', DATASPACE_SEED: TEST_SEED, JWT_SECRET: 'start-up-secret-0123456789abcdef' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).to.equal(1);
      expect(onlyMessage(stderr)).to.equal(
        `Port ${port} is already in use (127.0.0.1:${port}): set PORT to a free port, or stop what listens there`,
      );
    } finally {
      taken.close();
    }
  });

  it('a data dir under a file: one line naming DATASPACE_DATA_DIR', async () => {
    writeFileSync(join(dir, 'plain-file'), 'not a directory');
    const dataDir = join(dir, 'plain-file', 'data');
    const refused = await ChildNode.refused(dataDir);
    expect(refused.code).to.equal(1);
    expect(onlyMessage(refused.stderr)).to.equal(
      `The data dir ${dataDir} cannot be created (a file is in its way): set DATASPACE_DATA_DIR to a directory the node may write`,
    );
  });
});
