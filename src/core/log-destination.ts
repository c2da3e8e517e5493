import sonicBoom from 'sonic-boom';
import type { DestinationStream } from 'pino';

// sonic-boom is CommonJS: its class is a property of the module object.
const { SonicBoom } = sonicBoom;

/** How long the last flush at exit may take before the lines still buffered are given up. */
export const FINAL_FLUSH_MS = 1_000;

/** Lines held while the reader is slow: past this the newest are dropped rather than memory grown. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * The log's way out to a file descriptor, written on libuv's thread pool (a synchronous write to stderr
 * was a good part of a cached read's time), which ends whatever became of its reader. pino's own
 * destination (sonic-boom 4) registers a synchronous flush at exit that sleeps and retries forever on
 * EPIPE or ENOSPC, and on EAGAIN while a pipe stays full: a node whose supervisor or `| tee` had gone
 * never finished stopping. Here a write error other than EAGAIN means the destination is broken: it is
 * given up on, later lines are dropped. EAGAIN (a slow reader) is retried while the node runs, and at
 * exit only until FINAL_FLUSH_MS have passed. sonic-boom 5 throws from flushSync instead of looping
 * (docs/decisions.md, "A log destination that went away").
 */
export class LogDestination {
  readonly stream: InstanceType<typeof SonicBoom>;
  private broken = false;
  private flushDeadline = Infinity;

  constructor(fd: number) {
    this.stream = new SonicBoom({
      fd,
      sync: false,
      maxLength: MAX_BUFFERED_BYTES,
      retryEAGAIN: () => Date.now() < this.flushDeadline,
    });
    this.stream.on('error', () => this.giveUp());
  }

  /** Whether a write failed in a way no retry mends (EPIPE, EBADF, ENOSPC, ...). */
  get gaveUp(): boolean {
    return this.broken;
  }

  /** Writes what is buffered, synchronously, for at most FINAL_FLUSH_MS; gives the rest up. */
  finalFlush(): void {
    if (this.broken) return;
    this.flushDeadline = Date.now() + FINAL_FLUSH_MS;
    try {
      this.stream.flushSync();
    } catch {
      this.giveUp();
    }
  }

  private giveUp(): void {
    if (this.broken) return;
    this.broken = true;
    // Nothing to tell: the log itself is what broke. Later lines go nowhere instead of piling up.
    this.stream.write = () => true;
    this.stream.flushSync = () => undefined;
  }
}

let stderrDestination: LogDestination | undefined;

/** The process's one destination on stderr (fd 2), flushed within FINAL_FLUSH_MS when the process exits. */
export function stderrLog(): DestinationStream {
  if (stderrDestination === undefined) {
    const destination = new LogDestination(2);
    stderrDestination = destination;
    process.once('exit', () => destination.finalFlush());
  }
  return stderrDestination.stream;
}
