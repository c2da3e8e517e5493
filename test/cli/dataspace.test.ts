import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { verifyPassword } from '../../src/core/auth/passwords.js';
import { parseSeed } from '../../src/core/registry/seed.js';
import { logIn, TestNode, TEST_SEED } from '../helpers/test-node.js';
import { freePort } from '../helpers/free-port.js';

const CLI = resolve(projectRoot, 'dist', 'src', 'cli-main.js');
const VALID = resolve(projectRoot, 'test', 'fixtures', 'valid', 'add-document-code-as-iri.json');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built `dataspace` command as a user runs it; `input` is written to its standard input. */
function dataspace(args: string[], input?: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('error', fail);
    child.once('exit', (code) => ok({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('the dataspace command', function () {
  this.timeout(60_000);

  const helps = [[], ['serve'], ['validate'], ['export'], ['import'], ['user'], ['user', 'add'], ['hash-password']];
  for (const sub of helps) {
    it(`answers ${['dataspace', ...sub, '--help'].join(' ')} with its usage and exit 0`, async () => {
      const ran = await dataspace([...sub, '--help']);
      expect(ran.code).to.equal(0);
      expect(ran.stdout).to.match(new RegExp(`^Usage: dataspace${sub.length > 0 ? ` ${sub.join(' ')}` : ''} `));
    });
  }

  it('exits 2 with the usage on an unknown sub-command or a missing argument', async () => {
    const unknown = await dataspace(['frobnicate']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain("unknown command 'frobnicate'");
    const missing = await dataspace(['export']);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain("missing required argument 'file'");
  });

  it('validates standard input given as -', async () => {
    const good = await dataspace(['validate', '-'], readFileSync(VALID, 'utf8'));
    expect(good.code).to.equal(0);
    expect(good.stdout).to.equal('-: conforms\n');
    const bad = await dataspace(['validate', '--json', '-'], '{"not": "json-ld"');
    expect(bad.code).to.equal(1);
    expect(JSON.parse(bad.stdout)).to.include({ file: '-', conforms: false });
  });

  it('ends quietly with exit 0 when its reader closes the pipe (| head)', async () => {
    const child = spawn(process.execPath, [CLI, 'validate', ...Array(60).fill(VALID)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    // Read the first line, then close the pipe the way head does.
    await new Promise<void>((ok) => child.stdout.once('data', () => ok()));
    child.stdout.destroy();
    const code = await new Promise((ok) => child.once('exit', ok));
    expect(stderr).not.to.contain('EPIPE');
    expect(code).to.equal(0);
  });

  it('serves the node with dataspace serve --port --data-dir, ready on /readyz, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-serve-'));
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), '--data-dir', dir], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', DATASPACE_SEED: TEST_SEED, JWT_SECRET: 'serve-secret-0123456789abcdef' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise((ok) => child.once('exit', ok));
    try {
      const deadline = Date.now() + 45_000;
      for (;;) {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (res?.status === 200) break;
        expect(Date.now(), `not ready:\n${stderr}`).to.be.below(deadline);
        await new Promise((ok) => setTimeout(ok, 100));
      }
      expect(await logIn(`http://127.0.0.1:${port}`, 'forwarder')).to.be.a('string');
      expect(stderr).to.contain(`"dataDir":"${dir}"`);
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a misspelt DATASPACE_ variable, naming it and the nearest known name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-unknown-'));
    try {
      const ran = await dataspace(['serve', '--port', String(await freePort()), '--data-dir', dir], undefined, {
        HOST: '127.0.0.1',
        DATASPACE_SEED: TEST_SEED,
        DATASPACE_SPARQL_THREDS: '1',
      });
      expect(ran.code).to.equal(1);
      const lines = ran.stderr.trim().split('\n');
      expect(lines).to.have.length(1);
      expect(JSON.parse(lines[0] ?? '').msg).to.equal(
        'DATASPACE_SPARQL_THREDS is not a setting of this node; did you mean DATASPACE_SPARQL_THREADS? (docs/configuration.md)',
      );
      expect(readdirSync(dir)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hashes a password from standard input as scrypt', async () => {
    const ran = await dataspace(['hash-password'], 'correct horse battery\n');
    expect(ran.code).to.equal(0);
    const hash = ran.stdout.trim();
    expect(hash).to.match(/^scrypt\$/);
    expect(await verifyPassword('correct horse battery', hash)).to.equal(true);
    expect(ran.stdout).not.to.contain('correct horse');
  });

  it('adds a user to a seed file with a hash only, and the node lets them log in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-cli-'));
    try {
      const seed = join(dir, 'seed.json');
      copyFileSync(TEST_SEED, seed);
      const added = await dataspace(
        ['user', 'add', '--email', 'New.Clerk@forwarder.example', '--organisation', 'did:web:forwarder.example', '--seed', seed],
        'clerk-password-1\n',
      );
      expect(added.code, added.stderr).to.equal(0);
      const text = readFileSync(seed, 'utf8');
      expect(text).not.to.contain('clerk-password-1');
      const user = parseSeed(JSON.parse(text)).users.find((u) => u.email === 'new.clerk@forwarder.example');
      expect(user?.passwordHash).to.match(/^scrypt\$/);

      const again = await dataspace(
        ['user', 'add', '-e', 'new.clerk@forwarder.example', '-o', 'did:web:forwarder.example', '-s', seed],
        'x\n',
      );
      expect(again.code).to.equal(1);
      expect(again.stderr).to.contain('already lists');
      const unknownOrg = await dataspace(['user', 'add', '-e', 'a@b.example', '-o', 'did:web:nobody.example', '-s', seed], 'x\n');
      expect(unknownOrg.code).to.equal(1);
      expect(readFileSync(seed, 'utf8')).to.equal(text);

      const node = await TestNode.start({ DATASPACE_SEED: seed });
      try {
        const res = await fetch(`${node.url}/authentication/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'new.clerk@forwarder.example', password: 'clerk-password-1' }),
        });
        expect(res.status).to.equal(200);
        expect(await logIn(node.url, 'forwarder')).to.be.a('string');
      } finally {
        await node.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
