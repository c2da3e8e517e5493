import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-paths.js';
import { freePort } from './free-port.js';

const BINARY = '/usr/bin/virtuoso-t';
const ISQL = '/usr/bin/isql-vt';
/** The set-up an operator runs on the server (deploy/virtuoso-setup.sql: update rights), and the optional graph index. */
export const VIRTUOSO_SETUP = join(projectRoot, 'deploy', 'virtuoso-setup.sql');
export const VIRTUOSO_GRAPH_INDEX = join(projectRoot, 'deploy', 'virtuoso-graph-index.sql');

/** Why the Virtuoso tests cannot run here, or undefined when they can. */
export function virtuosoMissing(): string | undefined {
  if (!existsSync(BINARY) || !existsSync(ISQL))
    return `Virtuoso is not installed (${BINARY}); .ci/run installs it with apt-get install -y virtuoso-opensource`;
  return undefined;
}

/**
 * Virtuoso Open Source on 127.0.0.1 with a temporary database, started for a test run and stopped
 * after it, set up as an operator sets one up (deploy/virtuoso-setup.sql): anonymous SPARQL gets update
 * rights on this throwaway database only.
 */
export class Virtuoso {
  private constructor(
    private readonly child: ChildProcess,
    readonly dir: string,
    private readonly sqlPort: number,
    readonly sparqlUrl: string,
    readonly output: () => string,
  ) {}

  /** `buffers`: Virtuoso's page cache in 8 KiB pages (10,000 ≈ 80 MB for tests; deploy/virtuoso.ini uses 340,000). */
  /** `parameters`: more [Parameters] lines of the ini (the bench tries server tuning this way). */
  /** `graphIndex`: run deploy/virtuoso-graph-index.sql after the set-up (the bench compares the two). */
  static async start(options: { buffers?: number; parameters?: Record<string, string>; graphIndex?: boolean } = {}): Promise<Virtuoso> {
    const buffers = options.buffers ?? 10_000;
    const missing = virtuosoMissing();
    if (missing) throw new Error(missing);
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-virtuoso-'));
    const [sqlPort, httpPort] = [await freePort(), await freePort()];
    writeFileSync(
      join(dir, 'virtuoso.ini'),
      [
        '[Database]',
        `DatabaseFile = ${dir}/virtuoso.db`,
        `ErrorLogFile = ${dir}/virtuoso.log`,
        `LockFile = ${dir}/virtuoso.lck`,
        `TransactionFile = ${dir}/virtuoso.trx`,
        `xa_persistent_file = ${dir}/virtuoso.pxa`,
        'ErrorLogLevel = 7',
        'FileExtend = 200',
        'Striping = 0',
        'TempStorage = TempDatabase',
        '[TempDatabase]',
        `DatabaseFile = ${dir}/virtuoso-temp.db`,
        `TransactionFile = ${dir}/virtuoso-temp.trx`,
        'Striping = 0',
        '[Parameters]',
        `ServerPort = 127.0.0.1:${sqlPort}`,
        'DisableUnixSocket = 1',
        'CheckpointInterval = 60',
        'CaseMode = 2',
        'DirsAllowed = .',
        `NumberOfBuffers = ${buffers}`,
        `MaxDirtyBuffers = ${Math.round(buffers * 0.6)}`,
        'MaxQueryMem = 256M',
        ...Object.entries(options.parameters ?? {}).map(([name, value]) => `${name} = ${value}`),
        '[HTTPServer]',
        `ServerPort = 127.0.0.1:${httpPort}`,
        'ServerRoot = /var/lib/virtuoso-opensource-7/vsp',
        'ServerThreads = 10',
        'MaxKeepAlives = 10',
        'KeepAliveTimeout = 10',
        'Charset = UTF-8',
        'EnabledGzipContent = 0',
        '[SPARQL]',
        'ResultSetMaxRows = 1000000',
        'MaxQueryExecutionTime = 60',
        '',
      ].join('\n'),
    );
    let output = '';
    const child = spawn(BINARY, ['+foreground', '+configfile', join(dir, 'virtuoso.ini')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const sparqlUrl = `http://127.0.0.1:${httpPort}/sparql`;
    const virtuoso = new Virtuoso(child, dir, sqlPort, sparqlUrl, () => output);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`virtuoso-t exited with ${child.exitCode}:\n${output}`);
      if (output.includes('Server online at')) {
        const res = await fetch(`${sparqlUrl}?query=${encodeURIComponent('ASK {}')}`).catch(() => undefined);
        if (res?.ok) break;
      }
      if (Date.now() > deadline) {
        await virtuoso.stop();
        throw new Error(`Virtuoso did not start within 120 s:\n${output}`);
      }
      await new Promise((ok) => setTimeout(ok, 200));
    }
    try {
      await virtuoso.setUp();
      if (options.graphIndex) await virtuoso.setUp(VIRTUOSO_GRAPH_INDEX);
    } catch (error) {
      await virtuoso.stop();
      throw error;
    }
    return virtuoso;
  }

  /** Runs SQL as dba with isql-vt (the bench's bulk load); its output, or an error with it. */
  // Not spawnSync: a caller blocked past Virtuoso's KeepAliveTimeout then reuses a connection the server
  // closed meanwhile ("other side closed" on the next fetch).
  /** Runs a set-up file as an operator does (start() has run deploy/virtuoso-setup.sql once). */
  setUp(file = VIRTUOSO_SETUP): Promise<string> {
    return this.runIsql([file]);
  }

  isql(sql: string): Promise<string> {
    return this.runIsql([`exec=${sql}`]);
  }

  private async runIsql(args: string[]): Promise<string> {
    const child = spawn(ISQL, [`127.0.0.1:${this.sqlPort}`, 'dba', 'dba', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0 || /\*\*\* Error/.test(out)) throw new Error(`isql-vt: ${out}`);
    return out;
  }

  /** The server's process id (the bench reads its CPU time from /proc). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Settings for a node on this server. */
  env(): Record<string, string> {
    return { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: this.sparqlUrl, DATASPACE_SPARQL_UPDATE_URL: this.sparqlUrl };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((ok) => this.child.once('exit', ok));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
