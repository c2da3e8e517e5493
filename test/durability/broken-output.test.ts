import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { FINAL_FLUSH_MS } from '../../src/core/log-destination.js';
import { freePort } from '../helpers/free-port.js';
import { TEST_SEED } from '../helpers/test-node.js';

const MAIN = resolve(projectRoot, 'dist', 'bundle', 'main.js');
const SHUTDOWN_TIMEOUT_MS = 2_000;
/** The drain deadline, the bounded last flush, and room for closing the store on a loaded machine. */
const STOP_BOUND_MS = SHUTDOWN_TIMEOUT_MS + FINAL_FLUSH_MS + 4_000;
/** Each unauthenticated read is answered 401 and writes one access-log line. */
const LOGGED = '/supply-chain/data-space/consignments';

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
}

/** The built node with both stdout and stderr piped to this process, started and listening. */
async function startNode(dataDir: string): Promise<{ child: ChildProcess; url: string; exited: (from: number) => Promise<Exit> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATASPACE_DATA_DIR: dataDir,
      DATASPACE_SEED: TEST_SEED,
      JWT_SECRET: 'durability-secret-0123456789abcdef',
      DATASPACE_LOG: 'info',
      DATASPACE_SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((ok) =>
    child.once('exit', (code, signal) => ok({ code, signal, at: Date.now() })),
  );
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!log.includes('"msg":"listening"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the node did not start:\n${log}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
  // A stop that never ends is the failure under test: the bound is asserted, then the process is killed.
  const exited = async (from: number): Promise<Exit> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((ok) => (timer = setTimeout(() => ok(undefined), STOP_BOUND_MS)));
    const exit = await Promise.race([ended, timeout]);
    clearTimeout(timer);
    if (exit === undefined) {
      child.kill('SIGKILL');
      return { code: null, signal: null, ms: Infinity };
    }
    return { code: exit.code, signal: exit.signal, ms: exit.at - from };
  };
  return { child, url: `http://127.0.0.1:${port}`, exited };
}

/** `n` reads at once, each logged when answered; they may fail once the node stops listening. */
function burst(url: string, n: number): Promise<unknown> {
  return Promise.all(
    Array.from({ length: n }, () =>
      fetch(`${url}${LOGGED}`).then(
        (r) => r.body?.cancel(),
        () => undefined,
      ),
    ),
  );
}

/** Stops reading the node's stderr and makes it log more than the pipe holds. */
async function fillStderr(node: { child: ChildProcess; url: string }): Promise<void> {
  node.child.stderr!.pause();
  // ~150 bytes an access-log line: 1,000 lines are more than a 64 KiB pipe holds.
  for (let i = 0; i < 5; i++) await burst(node.url, 200);
}

describe('durability: stopping whatever became of stdout and stderr', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-output-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0 within the deadline when the reader of stderr goes away with lines in flight', async () => {
    const node = await startNode(dir);
    await fillStderr(node);
    // The pipe is full: a write is in flight (retried on EAGAIN) and lines wait behind it when the node
    // reaches its exit; then the reader goes, and every retry fails with EPIPE (the loop seen with strace).
    const from = Date.now();
    node.child.kill('SIGTERM');
    setTimeout(() => node.child.stderr!.destroy(), 1_500);
    const exit = await node.exited(from);
    expect(exit.ms, 'the stop ended').to.be.below(STOP_BOUND_MS);
    expect(exit).to.include({ code: 0, signal: null });
  });

  it('exits 0 within the deadline when stdout and stderr were closed before the signal', async () => {
    const node = await startNode(dir);
    node.child.stdout!.destroy();
    node.child.stderr!.destroy();
    await burst(node.url, 20);
    const from = Date.now();
    node.child.kill('SIGTERM');
    const exit = await node.exited(from);
    expect(exit.ms, 'the stop ended').to.be.below(STOP_BOUND_MS);
    expect(exit).to.include({ code: 0, signal: null });
  });

  it('exits 0 within the deadline when stdout and stderr are closed just after the signal', async () => {
    const node = await startNode(dir);
    const reads = burst(node.url, 100);
    await new Promise((ok) => setTimeout(ok, 20));
    const from = Date.now();
    node.child.kill('SIGTERM');
    node.child.stdout!.destroy();
    node.child.stderr!.destroy();
    await reads;
    const exit = await node.exited(from);
    expect(exit.ms, 'the stop ended').to.be.below(STOP_BOUND_MS);
    expect(exit).to.include({ code: 0, signal: null });
  });

  it('exits 0 within the deadline when stderr is a full pipe nobody reads', async () => {
    const node = await startNode(dir);
    await fillStderr(node);
    const from = Date.now();
    node.child.kill('SIGTERM');
    const exit = await node.exited(from);
    expect(exit.ms, 'the stop ended').to.be.below(STOP_BOUND_MS);
    expect(exit).to.include({ code: 0, signal: null });
  });
});
