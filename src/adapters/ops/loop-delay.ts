import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Seconds of per-second maxima the recent-maximum gauge covers. */
export const RECENT_SECONDS = 60;

/**
 * The event loop's delay, sampled by Node's own monitor (perf_hooks monitorEventLoopDelay, every 10 ms)
 * and read out once a second: each second's longest delay goes to `observe` (the metrics' histogram)
 * and into a ring of the last RECENT_SECONDS, whose maximum is the "longest stall lately" gauge. Read
 * once a second, so a scraper never resets what another reads (prom-client's own lag gauges reset at
 * each scrape). A stall longer than a second is observed once, when the loop is free again.
 */
export class LoopDelay {
  private readonly monitor: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly recent = new Float64Array(RECENT_SECONDS);
  private at = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly observe: (seconds: number) => void) {
    this.monitor.enable();
    this.timer = setInterval(() => this.drain(), 1000);
    // The node's own timers keep it alive, not this one.
    this.timer.unref();
  }

  /** The longest delay in the last RECENT_SECONDS seconds, the second under way included, in seconds. */
  get recentMaxSeconds(): number {
    let max = this.monitor.count > 0 ? this.monitor.max / 1e9 : 0;
    for (const seconds of this.recent) if (seconds > max) max = seconds;
    return max;
  }

  private drain(): void {
    if (this.monitor.count === 0) return;
    const seconds = this.monitor.max / 1e9;
    this.monitor.reset();
    this.recent[this.at] = seconds;
    this.at = (this.at + 1) % RECENT_SECONDS;
    this.observe(seconds);
  }

  close(): void {
    clearInterval(this.timer);
    this.monitor.disable();
  }
}
