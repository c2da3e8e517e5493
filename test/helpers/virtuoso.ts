import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { freePort } from './free-port.js';

const BINARY = '/usr/bin/virtuoso-t';
const ISQL = '/usr/bin/isql-vt';
/** The set-up an operator runs on the server (deploy/virtuoso-setup.sql: update rights), and the optional graph index. */
export const VIRTUOSO_SETUP = join(projectRoot, 'deploy', 'virtuoso-setup.sql');
export const VIRTUOSO_GRAPH_INDEX = join(projectRoot, 'deploy', 'virtuoso-graph-index.sql');
export const VIRTUOSO_GRAPH_INDEX_DROP = join(projectRoot, 'deploy', 'virtuoso-graph-index-drop.sql');
/** The node's own account (user and password as isql's U{account}, U{password}). */
export const VIRTUOSO_NODE_ACCOUNT = join(projectRoot, 'deploy', 'virtuoso-node-account.sql');
/** Anonymous update rights, for a throwaway test database only. */
export const TEST_ANONYMOUS = join(projectRoot, 'test', 'fixtures', 'virtuoso-anonymous-update.sql');

/** An account for the node on the server (deploy/virtuoso-node-account.sql), reached over /sparql-auth. */
export interface VirtuosoAccount {
  user: string;
  password: string;
}

/** Why the Virtuoso tests cannot run here, or undefined when they can. */
export function virtuosoMissing(): string | undefined {
  if (!existsSync(BINARY) || !existsSync(ISQL))
    return `Virtuoso is not installed (${BINARY}); .ci/run installs it with apt-get install -y virtuoso-opensource`;
  return undefined;
}

/**
 * Virtuoso Open Source on 127.0.0.1 with a temporary database, started for a test run and stopped
 * after it, set up as an operator sets one up (deploy/virtuoso-setup.sql, which leaves anonymous
 * requests no rights). Then either the node gets its own account (`account`, as deploy/ has it) or,
 * by default, anonymous SPARQL gets update rights on this throwaway database.
 */
export class Virtuoso {
  private constructor(
    private child: ChildProcess,
    readonly dir: string,
    private readonly sqlPort: number,
    readonly sparqlUrl: string,
    private log: { text: string },
  ) {}

  readonly output = (): string => this.log.text;
  /** The node's account, when start() set one up. */
  account: VirtuosoAccount | undefined;

  /** `buffers`: Virtuoso's page cache in 8 KiB pages (10,000 ≈ 80 MB for tests; deploy/virtuoso.ini uses 340,000). */
  /** `parameters`: more [Parameters] lines of the ini (the bench tries server tuning this way). */
  /** `graphIndex`: run deploy/virtuoso-graph-index.sql after the set-up (the bench compares the two). */
  /** `account`: set up the node's account with deploy/virtuoso-node-account.sql; env() then names it. */
  static async start(
    options: { buffers?: number; parameters?: Record<string, string>; graphIndex?: boolean; account?: VirtuosoAccount } = {},
  ): Promise<Virtuoso> {
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
    const log = { text: '' };
    const virtuoso = new Virtuoso(spawnServer(dir, log), dir, sqlPort, `http://127.0.0.1:${httpPort}/sparql`, log);
    try {
      await virtuoso.online();
      await virtuoso.setUp();
      if (options.account) {
        await virtuoso.setUp(VIRTUOSO_NODE_ACCOUNT, { account: options.account.user, password: options.account.password });
        virtuoso.account = options.account;
      } else await virtuoso.setUp(TEST_ANONYMOUS);
      if (options.graphIndex) await virtuoso.setUp(VIRTUOSO_GRAPH_INDEX);
    } catch (error) {
      await virtuoso.stop();
      throw error;
    }
    return virtuoso;
  }

  /** Waits until the server answers SPARQL (a new database takes longer: it is created first). */
  private async online(): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`virtuoso-t exited with ${this.child.exitCode}:\n${this.log.text}`);
      if (this.log.text.includes('Server online at')) {
        const res = await fetch(`${this.sparqlUrl}?query=${encodeURIComponent('ASK {}')}`).catch(() => undefined);
        await res?.body?.cancel();
        if (res && res.status < 500) return;
      }
      if (Date.now() > deadline) throw new Error(`Virtuoso did not start within 120 s:\n${this.log.text}`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }

  /** Kills the server with `signal` (SIGKILL: a crash) and keeps its database, for start() again. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((ok) => this.child.once('exit', ok));
    this.child.kill(signal);
    await exited;
  }

  /** Starts the server again on its database and ports, after kill(); resolves once it answers. */
  async restart(): Promise<void> {
    await this.kill();
    this.log.text = '';
    this.child = spawnServer(this.dir, this.log);
    await this.online();
  }

  /** Runs SQL as dba with isql-vt (the bench's bulk load); its output, or an error with it. */
  // Not spawnSync: a caller blocked past Virtuoso's KeepAliveTimeout then reuses a connection the server
  // closed meanwhile ("other side closed" on the next fetch).
  /** Runs a set-up file as an operator does (start() has run deploy/virtuoso-setup.sql once). */
  /** `values`: isql's U{name}=value macros the file reads as $U{name}. */
  setUp(file = VIRTUOSO_SETUP, values: Record<string, string> = {}): Promise<string> {
    return this.runIsql([file, ...Object.entries(values).map(([name, value]) => `U{${name}}=${value}`)]);
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
    if (!this.account)
      return { DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: this.sparqlUrl, DATASPACE_SPARQL_UPDATE_URL: this.sparqlUrl };
    const url = `${this.sparqlUrl}-auth`;
    return {
      DATASPACE_STORE: 'sparql',
      DATASPACE_SPARQL_QUERY_URL: url,
      DATASPACE_SPARQL_UPDATE_URL: url,
      DATASPACE_SPARQL_USER: this.account.user,
      DATASPACE_SPARQL_PASSWORD: this.account.password,
    };
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function spawnServer(dir: string, log: { text: string }): ChildProcess {
  const child = spawn(BINARY, ['+foreground', '+configfile', join(dir, 'virtuoso.ini')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  return child;
}
