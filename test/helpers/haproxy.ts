import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const BINARY = '/usr/sbin/haproxy';

/** Why the load-balancer tests cannot run here, or undefined when they can. */
export function haproxyMissing(): string | undefined {
  return existsSync(BINARY) ? undefined : `HAProxy is not installed (${BINARY}); .ci/run installs it with apt-get install -y haproxy`;
}

/**
 * Debian's HAProxy in front of node replicas on 127.0.0.1, as docs/replicas.md configures it: each
 * server's health is its GET /readyz, checked every `checkMs`, so requests go to the replica serving.
 */
export class HaProxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {}

  static async start(servers: readonly number[], checkMs = 200): Promise<HaProxy> {
    const missing = haproxyMissing();
    if (missing) throw new Error(missing);
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-haproxy-'));
    const port = await freePort();
    writeFileSync(
      join(dir, 'haproxy.cfg'),
      [
        'global',
        '  maxconn 1000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        'frontend dataspace',
        `  bind 127.0.0.1:${port}`,
        '  default_backend replicas',
        'backend replicas',
        '  option httpchk GET /readyz',
        '  http-check expect status 200',
        `  default-server inter ${checkMs}ms fall 1 rise 1`,
        ...servers.map((server, i) => `  server replica${i} 127.0.0.1:${server} check`),
        '',
      ].join('\n'),
    );
    let output = '';
    const child = spawn(BINARY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const proxy = new HaProxy(child, dir, `http://127.0.0.1:${port}`);
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
