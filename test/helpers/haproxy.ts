import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { freePort } from './free-port.js';

const BINARY = '/usr/sbin/haproxy';
const SHIPPED = join(projectRoot, 'deploy', 'haproxy.cfg');

/** deploy/haproxy.cfg as operators get it, with this test's listening port, replicas and check interval. */
function shippedConfig(port: number, servers: readonly number[], checkMs: number): string {
  const lines = readFileSync(SHIPPED, 'utf8').split('\n');
  const firstServer = lines.findIndex((line) => /^\s*server /.test(line));
  if (firstServer < 0) throw new Error(`${SHIPPED} lists no server`);
  return lines
    .filter((line, i) => i === firstServer || !/^\s*server /.test(line))
    .flatMap((line) => (/^\s*server /.test(line) ? servers.map((server, i) => `  server replica${i} 127.0.0.1:${server} check`) : [line]))
    .map((line) => line.replace(/^(\s*)bind .*/, `$1bind 127.0.0.1:${port}`).replace(/\binter \d+ms/, `inter ${checkMs}ms`))
    .join('\n');
}

/** Why the load-balancer tests cannot run here, or undefined when they can. */
export function haproxyMissing(): string | undefined {
  return existsSync(BINARY) ? undefined : `HAProxy is not installed (${BINARY}); .ci/run installs it with apt-get install -y haproxy`;
}

/**
 * Debian's HAProxy in front of node replicas on 127.0.0.1, run with the shipped deploy/haproxy.cfg: each
 * server's health is its GET /readyz, checked every `checkMs`, so requests go to the replica serving.
 */
export class HaProxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {}

  /** `port`: where it listens, when it must be known before the replicas start (their links carry it). */
  static async start(servers: readonly number[], checkMs = 200, port?: number): Promise<HaProxy> {
    const missing = haproxyMissing();
    if (missing) throw new Error(missing);
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-haproxy-'));
    const listen = port ?? (await freePort());
    writeFileSync(join(dir, 'haproxy.cfg'), shippedConfig(listen, servers, checkMs));
    let output = '';
    const child = spawn(BINARY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const proxy = new HaProxy(child, dir, `http://127.0.0.1:${listen}`);
    const deadline = Date.now() + 10_000;
    while (
      !(await fetch(`${proxy.url}/healthz`).then(
        (res) => res.body?.cancel().then(() => true),
        () => false,
      ))
    ) {
      if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`HAProxy did not answer within 10 s:\n${output}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
    return proxy;
  }

  /**
   * Waits until the proxy's first health checks are in: it starts with every server up, so until then
   * it also sends requests to a replica on standby. Settled = `/readyz` through it answered 200 ten times in a row.
   */
  async settled(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let inARow = 0; inARow < 10;) {
      const res = await fetch(`${this.url}/readyz`).catch(() => undefined);
      await res?.body?.cancel();
      inARow = res?.status === 200 ? inARow + 1 : 0;
      if (Date.now() > deadline) throw new Error(`the proxy did not settle on a ready replica within ${timeoutMs} ms`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((ok) => this.child.once('exit', ok));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
