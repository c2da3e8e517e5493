/**
 * Whether `error` is PostgreSQL's silence rather than its refusal: a statement or a connection that
 * got no answer within its bound, or a route the kernel reports gone. A server that is stopping,
 * starting or not listening answers (57P0x, a refused or reset connection): every replica sees that
 * alike. Silence is what a replica cut off from it sees, while the others may still reach it.
 */
export function silent(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (typeof code === 'string' && /^E(TIMEDOUT|HOSTUNREACH|NETUNREACH)$/.test(code)) return true;
  return /Query read timeout|timeout expired|Connection terminated due to connection timeout|timeout exceeded when trying to connect/.test(
    message ?? '',
  );
}

/**
 * What this replica last heard from PostgreSQL on its lease connection, which asks every
 * DATASPACE_REPLICA_CHECK_MS on every replica (the holder renews, a standby asks): `/readyz` answers
 * 503 once its asks went unanswered for `graceMs` after the first one timed out, so the load balancer
 * sends its requests to a replica that reaches PostgreSQL (docs/replicas.md "Lease and keepalive
 * settings"). The grace keeps one slow answer on a loaded machine from taking a replica out.
 */
export class PostgresReach {
  private silentSince: number | undefined;

  constructor(private readonly graceMs: number) {}

  /** PostgreSQL answered (a result, or a statement's refusal). */
  answered(): void {
    this.silentSince = undefined;
  }

  /** A statement failed without PostgreSQL refusing it: silence makes this replica unreachable; a refusal does not. */
  failed(error: unknown): void {
    if (!silent(error)) this.silentSince = undefined;
    else this.silentSince ??= performance.now();
  }

  /** False while PostgreSQL gives this replica no answer, past the grace. */
  reachable(): boolean {
    return this.silentSince === undefined || performance.now() - this.silentSince < this.graceMs;
  }
}
