import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, stop: () => undefined };

/**
 * A progress bar on standard error, only when it is a terminal: a pipe or a log file gets the final
 * JSON line alone, and standard output stays clean for it either way.
 */
export function progressBar(label: string, total: number, unit: string): Progress {
  if (!process.stderr.isTTY) return NONE;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (done, newTotal) => {
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}
