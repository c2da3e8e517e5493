import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { projectRoot } from '../src/core/project-paths.js';

/** The node as `npm start` runs it: bundled by scripts/build.mjs. */
export const NODE_MAIN = resolve(projectRoot, 'dist', 'bundle', 'main.js');

/** A server the benchmark started in its own process, on 127.0.0.1. */
export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  logFile: string;
  /** Milliseconds from spawn to the first HTTP answer. */
  startMs: number;
  /** Resident set size in MB, from /proc. */
  rssMb(): number;
  /** CPU time (user + system, every thread) the process has used so far, in ms, from /proc. */
  cpuMs(): number;
  /** CPU time (user + system) of the process's main thread alone, in ms (the rest: V8's, libuv's and worker threads). */
  mainThreadCpuMs(): number;
  stop(): Promise<void>;
  /** Stops it with SIGKILL (kill -9: no shutdown work at all) and waits for its exit. */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Resident set size of a process in MB, from /proc. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

// Linux reports CPU times in clock ticks of 1/100 s (USER_HZ) on every common architecture.
const TICK_MS = 10;

/** CPU time (user + system, every thread) of a process so far, in ms, from /proc; of one thread given `task`. */
export function cpuOf(pid: number, task?: number): number {
  const stat = readFileSync(task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Polls until the server answers any HTTP request (any status counts: it is up). */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Set by the exit listener; typed by hand because the compiler does not see the callback assign it.
  let exited = null as number | null;
  child.once('exit', (code) => {
    exited = code ?? -1;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`${url}: the process exited (${exited}) before answering; its log:\n${tail(logFile)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      // The node's port opens before its store recovers and answers 503 meanwhile: not served yet.
      if (res.status !== 503) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`${url}: no answer within ${timeoutMs} ms; its log:\n${tail(logFile)}`);
}

export async function startServer(options: {
  name: string;
  script: string;
  args?: string[];
  env?: Record<string, string>;
  port: number;
  logFile: string;
  readyPath?: string;
  timeoutMs?: number;
  nodeArgs?: string[];
}): Promise<ServerProcess> {
  const out = openSync(options.logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const url = `http://127.0.0.1:${options.port}`;
  try {
    await waitForHttp(`${url}${options.readyPath ?? '/'}`, child, options.timeoutMs ?? 120_000, options.logFile);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const startMs = performance.now() - started;
  const pid = child.pid!;
  return {
    name: options.name,
    url,
    pid,
    logFile: options.logFile,
    startMs,
    rssMb: () => rssOf(pid),
    cpuMs: () => cpuOf(pid),
    mainThreadCpuMs: () => cpuOf(pid, pid),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a script to completion and returns its stdout; throws with its output when it fails. */
export async function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} ${args.join(' ')} failed (${code}):\n${stderr.slice(-4000)}`);
  return stdout;
}
