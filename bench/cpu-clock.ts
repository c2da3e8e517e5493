import { readdirSync, readFileSync } from 'node:fs';
import { cpuOf } from './processes.js';

/**
 * A process's CPU time with sub-millisecond resolution, for measuring a few hundred requests of ~1 ms:
 * /proc/<pid>/stat reports whole 10 ms ticks, so 100 list pages would be read to ±10 %. Each thread's
 * /proc/<pid>/task/<tid>/schedstat holds its time on a CPU in nanoseconds; their sum over the threads
 * alive at both readings is the process's time, except for a thread that ended in between, whose time
 * only the process-wide tick count keeps: when that count rose by more than the threads' sum (beyond
 * its one-tick rounding on each reading), the tick count is the figure.
 */
export class CpuClock {
  private threads = new Map<string, number>();
  private ticksMs = 0;

  constructor(private readonly pid: number) {
    this.reset();
  }

  /** Starts a measurement now. */
  reset(): void {
    this.threads = this.read();
    this.ticksMs = cpuOf(this.pid);
  }

  /** CPU milliseconds (every thread) since the last reset. */
  elapsedMs(): number {
    const now = this.read();
    let ns = 0;
    for (const [tid, value] of now) ns += value - (this.threads.get(tid) ?? 0);
    const precise = ns / 1e6;
    const ticks = cpuOf(this.pid) - this.ticksMs;
    return ticks > precise + 20 ? ticks : precise;
  }

  private read(): Map<string, number> {
    const out = new Map<string, number>();
    for (const tid of readdirSync(`/proc/${this.pid}/task`)) {
      try {
        out.set(tid, Number(readFileSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // The thread ended between the listing and the read: the tick count above covers it.
      }
    }
    return out;
  }
}
