import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/core/project-paths.js';
import { ChildNode } from './child-node.js';

const run = promisify(execFile);

/** The ```sh block after the README's "Walk-through with curl" heading, as a reader copies it. */
function walkThrough(): string {
  const readme = readFileSync(resolve(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Walk-through with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no sh block after "Walk-through with curl" in README.md');
  return block[1]!;
}

describe('README: the curl walk-through runs as written', function () {
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-readme-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('publishes, records an event, attaches the inline document and reads them back on the example seed', async () => {
    // As `npm start` runs it: the bundle on the bundled example seed (demo credentials).
    const node = await ChildNode.start(join(dir, 'data'), { DATASPACE_SEED: resolve(projectRoot, 'examples', 'seed.json') });
    try {
      // The block's own commands, verbatim; only the node's address comes from the environment (B).
      const { stdout } = await run('bash', ['-e', '-c', walkThrough()], { cwd: dir, env: { PATH: process.env.PATH, B: node.url } });
      const statuses = [...stdout.matchAll(/"status":"(\w+)"/g)].map((m) => m[1]);
      expect(statuses.slice(0, 3), stdout).to.deep.equal(['completed', 'completed', 'completed']);
      expect(stdout).to.include('"documentId":"INV-1"');
      expect(stdout).to.include('"metadata":{"encodingFormat":"application/pdf"');
      expect(stdout).to.include('REF-1');
      expect(stdout).to.not.match(/"name":"(Unauthorized|BadRequest|Forbidden)"/);
    } finally {
      await node.kill('SIGTERM');
    }
  });
});
