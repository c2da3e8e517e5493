import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a quota was put: a cgroup v2 `cpu.max`, a cgroup v1 `cpu.cfs_quota_us`, or nowhere (not writable here). */
export type QuotaKind = 'cgroup v2 cpu.max' | 'cgroup v1 cpu.cfs_quota_us' | 'none';

const V2 = '/sys/fs/cgroup';
const V1 = '/sys/fs/cgroup/cpu';
const PERIOD_US = 100_000;
const made: string[] = [];
/** The cgroup each process was put in, by pid. */
const groups = new Map<number, string>();

/**
 * Puts process `pid` (every thread of it) under a CPU quota of `percent` of one core, in a cgroup of
 * its own: so that a 2-core machine shows what one small machine per replica gives. Tries cgroup v2
 * first, then the v1 cpu controller; answers which worked.
 */
export function cpuQuota(pid: number, percent: number): QuotaKind {
  const quota = Math.round((PERIOD_US * percent) / 100);
  const attempts: [QuotaKind, string, (dir: string) => void][] = [
    ['cgroup v2 cpu.max', V2, (dir) => writeFileSync(join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`)],
    [
      'cgroup v1 cpu.cfs_quota_us',
      V1,
      (dir) => {
        writeFileSync(join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(join(dir, 'cpu.cfs_quota_us'), String(quota));
      },
    ],
  ];
  for (const [kind, root, limit] of attempts) {
    if (kind === 'cgroup v2 cpu.max' && !existsSync(join(root, 'cgroup.controllers'))) continue;
    const dir = join(root, `dataspace-bench-${process.pid}-${pid}`);
    try {
      mkdirSync(dir);
      made.push(dir);
      limit(dir);
      writeFileSync(join(dir, 'cgroup.procs'), String(pid));
      groups.set(pid, dir);
      return kind;
    } catch {
      // Not writable here: the next kind, or none.
    }
  }
  return 'none';
}

/**
 * How long process `pid`'s quota held it back so far, in ms (its cgroup's `throttled_usec`, v2, or
 * `throttled_time`, v1): a quota that holds grows it; NaN when the process has no quota here.
 */
export function throttledMs(pid: number): number {
  const dir = groups.get(pid);
  if (!dir) return NaN;
  try {
    const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
    const v2 = /throttled_usec (\d+)/.exec(stat);
    if (v2) return Number(v2[1]) / 1000;
    const v1 = /throttled_time (\d+)/.exec(stat);
    return v1 ? Number(v1[1]) / 1e6 : NaN;
  } catch {
    return NaN;
  }
}

/** Removes the cgroups made, once their processes ended. */
export function removeQuotas(): void {
  for (const dir of made.splice(0)) {
    try {
      rmdirSync(dir);
    } catch {
      // A process still in it, or gone already.
    }
  }
}
