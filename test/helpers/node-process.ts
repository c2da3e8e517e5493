import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { freePort } from './free-port.js';

/**
 * The node as an operator runs it: `npm start`'s bundle in a process of its own on 127.0.0.1, so a test
 * can kill it with SIGKILL. Its log lines are kept for the failure message.
 */
export class NodeProcess {
  private log = '';
  /** Resolves once the process exited and its output was read to the end ('close', after 'exit'). */
  private readonly closed: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.closed = new Promise((ok) => child.once('close', () => ok()));
  }

  /** Why the process is gone, with its whole log (read to the end: 'exit' may come before the last lines). */
  private async exitedError(): Promise<Error> {
    await Promise.race([this.closed, new Promise((ok) => setTimeout(ok, 2_000))]);
    return new Error(`the node exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.log}`);
  }

  static async start(env: Record<string, string>): Promise<NodeProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [join(projectRoot, 'dist', 'bundle', 'main.js')], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), DATASPACE_LOG: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new NodeProcess(child, `http://127.0.0.1:${port}`);
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get output(): string {
    return this.log;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What GET /readyz answers (0 when nothing listens yet). */
  async readiness(): Promise<number> {
    const res = await fetch(`${this.url}/readyz`).catch(() => undefined);
    await res?.body?.cancel();
    return res?.status ?? 0;
  }

  /** Waits until /readyz answers `status`. */
  async until(status: number, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.readiness()) !== status) {
      if (!this.running) throw await this.exitedError();
      if (Date.now() > deadline) throw new Error(`/readyz did not answer ${status} within ${timeoutMs} ms:\n${this.log}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }

  /** What a replica of a set serves as (its `Dataspace-Replica` header): `writer`, `follower`, or null while it does not serve. */
  async role(): Promise<string | null> {
    const res = await fetch(`${this.url}/readyz`).catch(() => undefined);
    await res?.body?.cancel();
    return res?.status === 200 ? res.headers.get('dataspace-replica') : null;
  }

  /** Waits until a replica serves as `role`. */
  async untilRole(role: 'writer' | 'follower', timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.role()) !== role) {
      if (!this.running) throw await this.exitedError();
      if (Date.now() > deadline) throw new Error(`the replica did not serve as the ${role} within ${timeoutMs} ms:\n${this.log}`);
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }

  /** Resolves with the exit code once the process ended by itself. */
  exited(): Promise<number | null> {
    if (!this.running) return Promise.resolve(this.child.exitCode);
    return new Promise((ok) => this.child.once('exit', (code) => ok(code)));
  }

  kill(signal: NodeJS.Signals): Promise<void> {
    if (!this.running) return Promise.resolve();
    const exited = new Promise<void>((ok) => this.child.once('exit', () => ok()));
    this.child.kill(signal);
    return exited;
  }
}
