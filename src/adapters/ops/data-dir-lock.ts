import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../core/config-values.js';

export const LOCK_FILE = 'node.lock';

/** Who holds a data dir: enough to tell, on the same machine, whether that process still runs. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The kernel's boot id: a pid recorded before a reboot names nothing now. */
  bootId?: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat): a reused pid shows another. */
  startTicks?: string;
  startedAt: string;
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat; the command name before it may hold spaces and parentheses. */
function startTicksOf(pid: number): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function self(): LockHolder {
  return {
    pid: process.pid,
    host: hostname(),
    bootId: readOr('/proc/sys/kernel/random/boot_id'),
    startTicks: startTicksOf(process.pid),
    startedAt: new Date().toISOString(),
  };
}

/** Whether `holder` may still run: certain only on this machine; a holder elsewhere is taken as alive. */
function mayRun(holder: LockHolder, me: LockHolder): boolean {
  if (holder.host !== me.host) return true;
  if (holder.bootId !== undefined && me.bootId !== undefined && holder.bootId !== me.bootId) return false;
  // This process is not the holder (it holds nothing yet): its own pid there is a dead predecessor's.
  if (holder.pid === me.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const ticks = startTicksOf(holder.pid);
  return holder.startTicks === undefined || ticks === undefined || ticks === holder.startTicks;
}

/** Removes the lock at exit if it is still this process's (a node that lost it must not free another's). */
export function releaseDataDir(dataDir: string, me: LockHolder): void {
  const path = join(dataDir, LOCK_FILE);
  const holder = readLock(path)?.holder;
  if (holder?.pid === me.pid && holder.host === me.host && holder.startedAt === me.startedAt) rmSync(path, { force: true });
}

function describe(holder: LockHolder | undefined): string {
  if (holder === undefined) return 'a process whose lock file cannot be read';
  return `process ${holder.pid} on ${holder.host} (since ${holder.startedAt})`;
}

function parse(text: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/** The lock file's inode and holder, read through one descriptor so both are of the same file. */
function readLock(path: string): { inode: number; holder: LockHolder | undefined } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return { inode: fstatSync(fd).ino, holder: parse(readFileSync(fd, 'utf8')) };
  } finally {
    closeSync(fd);
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Creates `path` (which must not exist) holding `text`, durable before it is linked anywhere. */
function writeWhole(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function makeDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in its way' : code === 'EACCES' ? 'no permission' : code;
    throw new ConfigError(`The data dir ${dataDir} cannot be created (${why}): set DATASPACE_DATA_DIR to a directory the node may write`);
  }
}

/**
 * Makes this process the one node on `dataDir`, or throws a ConfigError naming the holder. The lock
 * is `DATA_DIR/node.lock`, created whole (written aside, then hard-linked into place, which fails if
 * it exists) with the holder's pid, host, boot id and start time. A lock whose process is gone on this
 * machine (a kill -9, a crash, a reboot) is taken over: moved aside by rename, which only one starter
 * can do, and the move checked to be that very file (its inode) before a new lock is created.
 */
export function lockDataDir(dataDir: string): LockHolder {
  makeDir(dataDir);
  const path = join(dataDir, LOCK_FILE);
  const me = self();
  const mine = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
  writeWhole(mine, `${JSON.stringify(me)}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(mine, path);
        return me;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const found = readLock(path);
      if (found === undefined) continue;
      const { inode, holder } = found;
      if (holder === undefined || mayRun(holder, me)) {
        throw new ConfigError(
          `The data dir ${dataDir} is in use by ${describe(holder)}: one node per data dir. ` +
            `Stop that node, or set DATASPACE_DATA_DIR to another directory (if it is certainly gone, remove ${path}).`,
        );
      }
      const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        renameSync(path, aside);
      } catch {
        continue;
      }
      if (inodeOf(aside) !== inode) {
        // Another starter took the stale lock over first: its fresh lock goes back where it was.
        try {
          linkSync(aside, path);
        } catch {
          // A third starter created one meanwhile: the next attempt meets it.
        } finally {
          unlinkSync(aside);
        }
        continue;
      }
      unlinkSync(aside);
    }
    throw new ConfigError(`Could not lock the data dir ${dataDir}: other nodes are starting on it at the same time`);
  } finally {
    rmSync(mine, { force: true });
  }
}
