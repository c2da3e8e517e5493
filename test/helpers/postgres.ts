import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

/** One statement on a database, as an operator's psql session: its rows. */
export async function asPostgres(databaseUrl: string, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Debian's server binaries (package postgresql): /usr/lib/postgresql/<major>/bin, the newest major. */
function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/** The account the server runs as: PostgreSQL refuses to run as root. */
function serverAccount(): { uid: number; gid: number } | undefined {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why the PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  if (!binDir()) return 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin); .ci/run installs it with apt-get install -y postgresql';
  if (!serverAccount()) return 'there is no postgres account to run the server as (Debian package postgresql creates it)';
  return undefined;
}

/**
 * A PostgreSQL cluster of its own on 127.0.0.1 and a free port, in a temporary directory, run as the
 * `postgres` account (the server refuses root) and removed when stopped: as CI runs it, never the
 * machine's own cluster or service.
 */
export class Postgres {
  private constructor(
    private child: ChildProcess,
    readonly dir: string,
    readonly port: number,
    readonly output: () => string,
  ) {}

  /** Stops the server (fast shutdown: sessions ended), keeping its data: `resume` starts it again on the same port. */
  async halt(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((ok) => this.child.once('exit', ok));
    this.child.kill('SIGINT');
    await exited;
  }

  /** Starts the halted server again on its data and port; resolves once it answers. */
  async resume(): Promise<void> {
    const account = serverAccount()!;
    this.child = spawn(join(binDir()!, 'postgres'), Postgres.args(this.dir, this.port), { ...account, stdio: 'ignore' });
    const deadline = Date.now() + 60_000;
    while (!(await this.answers())) {
      if (this.child.exitCode !== null) throw new Error(`postgres exited with ${this.child.exitCode} on its restart`);
      if (Date.now() > deadline) throw new Error('PostgreSQL did not start again within 60 s');
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }

  private static args(dir: string, port: number): string[] {
    return ['-D', join(dir, 'data'), '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off', '-c', 'max_connections=100'];
  }

  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the cluster trusts loopback connections. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<Postgres> {
    const missing = postgresMissing();
    if (missing) throw new Error(missing);
    const bin = binDir()!;
    const account = serverAccount()!;
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-postgres-'));
    chownSync(dir, account.uid, account.gid);
    const data = join(dir, 'data');
    const initdb = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], {
      ...account,
      encoding: 'utf8',
    });
    if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr}${initdb.stdout}`);
    const port = await freePort();
    let output = '';
    const child = spawn(join(bin, 'postgres'), Postgres.args(dir, port), { ...account, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const postgres = new Postgres(child, dir, port, () => output);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}:\n${output}`);
      if (await postgres.answers()) return postgres;
      if (Date.now() > deadline) {
        await postgres.stop();
        throw new Error(`PostgreSQL did not start within 60 s:\n${output}`);
      }
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }

  private async answers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** A new database on this cluster, and its URL: each test's data space starts empty. */
  async database(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    } finally {
      await client.end();
    }
    return `postgres://postgres@127.0.0.1:${this.port}/${encodeURIComponent(name)}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((ok) => this.child.once('exit', ok));
      // SIGINT: PostgreSQL's fast shutdown (ends sessions, no checkpoint wait beyond the needed one).
      this.child.kill('SIGINT');
      const killed = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
