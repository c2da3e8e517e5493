import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { freePort } from '../helpers/free-port.js';
import { logIn, TEST_SEED, type UserName } from '../helpers/test-node.js';

const MAIN = resolve(projectRoot, 'dist', 'bundle', 'main.js');

export interface Answer {
  status: number;
  body: any;
}

/** The built node as `npm start` runs it (dist/bundle/main.js) as a child process on 127.0.0.1, the way an operator runs it. */
export class ChildNode {
  private tokens = new Map<UserName, string>();
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    readonly process: ChildProcess,
    readonly url: string,
  ) {
    process.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((ok) => process.once('exit', (code, signal) => ok({ code, signal })));
  }

  private static spawn(dataDir: string, port: number, env: Record<string, string>): ChildProcess {
    return spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_DATA_DIR: dataDir,
        DATASPACE_SEED: TEST_SEED,
        JWT_SECRET: 'durability-secret-0123456789abcdef',
        DATASPACE_LOG: 'info',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }

  /** A start expected to fail: resolves with its exit code and what it wrote on stderr (SIGKILL after 30 s). */
  static async refused(dataDir: string, env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
    const node = new ChildNode(ChildNode.spawn(dataDir, await freePort(), env), '');
    const timer = setTimeout(() => node.process.kill('SIGKILL'), 30_000);
    const { code } = await node.exited;
    clearTimeout(timer);
    return { code, stderr: node.stderr };
  }

  static async start(dataDir: string, env: Record<string, string> = {}): Promise<ChildNode> {
    const port = await freePort();
    const child = ChildNode.spawn(dataDir, Number(env.PORT ?? port), env);
    const node = new ChildNode(child, `http://127.0.0.1:${env.PORT ?? port}`);
    const deadline = Date.now() + 30_000;
    while (!node.stderr.includes('"msg":"listening"')) {
      const exited = await Promise.race([node.exited, new Promise((ok) => setTimeout(() => ok(undefined), 25))]);
      if (exited) throw new Error(`node exited during start: ${JSON.stringify(exited)}\n${node.stderr}`);
      if (Date.now() > deadline) throw new Error(`node did not start:\n${node.stderr}`);
    }
    return node;
  }

  /** The first structured log line with this message, parsed. */
  logLine(message: string): Record<string, any> | undefined {
    const line = this.stderr.split('\n').find((l) => l.includes(`"msg":"${message}"`));
    return line === undefined ? undefined : JSON.parse(line);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.process.kill(signal);
    return this.exited;
  }

  async login(user: UserName): Promise<string> {
    const cached = this.tokens.get(user);
    if (cached) return cached;
    const token = await logIn(this.url, user);
    this.tokens.set(user, token);
    return token;
  }

  async as(user: UserName, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.login(user)}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return {
      status: res.status,
      body: text.length > 0 && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text,
    };
  }
}
