import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../../core/logger.js';
import { LeaseConnection } from './lease-connection.js';
import type { PostgresReach } from './postgres-reach.js';
import { statement } from './statements.js';

export interface LeaseOptions {
  /** How often the holder renews the lease, and a standby asks for it (DATASPACE_REPLICA_CHECK_MS). */
  checkMs: number;
  /** How long a renewal keeps the lease, by PostgreSQL's clock (DATASPACE_REPLICA_LEASE_MS). */
  leaseMs: number;
  logger: Logger;
  /** Called once when another replica took the lease: this one must acknowledge nothing more. */
  deposed: (reason: string) => void;
  /** Told what each ask of the lease heard from PostgreSQL: this replica's readiness. */
  reach?: PostgresReach;
}

/** The share of `leaseMs` after a renewal was sent that the holder counts on: the rest is margin for clocks. */
const TRUSTED = 0.8;

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * The writer lease of a replica set: a row in PostgreSQL (dataspace_writer) naming its holder, an
 * epoch and an expiry by PostgreSQL's clock. The holder renews it every `checkMs`; a standby takes it
 * once it expired (or was released), adding one to the epoch. Every write the holder makes carries the
 * epoch: PostgreSQL's tables refuse another epoch's writes (the fence, schema-lease.sql) and the
 * store's updates apply only while the store holds it (fenced-*.rq), so a frozen or cut-off holder
 * that wakes writes nothing. It also trusts its lease only until `leaseMs` × 0.8 after its last
 * renewal was sent, on the monotonic clock (`held`): the store's writes check that before and after
 * each request, so it acknowledges nothing it may no longer own. PostgreSQL out of reach ends
 * nothing: the holder keeps asking, and once PostgreSQL answers again renews the lease it still has.
 */
export class WriterLease {
  private timer: NodeJS.Timeout | undefined;
  private renewing = false;
  private ended = false;
  /** Until when (performance.now()) the lease is known to be this replica's. */
  private trustedUntil: number;
  private unconfirmedSince: number | undefined;

  private constructor(
    private readonly connection: LeaseConnection,
    private readonly options: LeaseOptions,
    readonly holder: string,
    readonly epoch: number,
    sentAt: number,
    /** The holder before this one stopped without letting the lease go: its last updates may still be on their way. */
    readonly previousDied: boolean,
  ) {
    this.trustedUntil = sentAt + options.leaseMs * TRUSTED;
  }

  /** Waits until this replica holds the lease (`standby` is told once if another holds it). */
  static async acquire(databaseUrl: string, options: LeaseOptions & { standby?: () => void }): Promise<WriterLease> {
    // A statement unanswered after a third of the lease is given up, and the renewal goes again at once
    // on a new connection: a renewal stuck on a cut connection still lands before the lease expires.
    const connection = new LeaseConnection(databaseUrl, Math.round(options.leaseMs / 3), options.logger, options.reach);
    // Unique per process even where every replica is pid 1 of a container with a reused name.
    const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    let onStandby = false;
    for (;;) {
      const tried = await connection.tried(async (client) => {
        const sentAt = performance.now();
        const { rows } = await client.query<{ epoch: string; previous: string | null; released: boolean | null }>(
          statement('lease-claim'),
          [holder, options.leaseMs],
        );
        // null: another replica holds it (undefined is PostgreSQL out of reach).
        return rows[0] ? { ...rows[0], epoch: Number(rows[0].epoch), sentAt } : null;
      });
      if (tried) {
        const died = tried.previous !== null && tried.released === false;
        const lease = new WriterLease(connection, options, holder, tried.epoch, tried.sentAt, died);
        options.logger.info('holding the writer lease', { holder, epoch: tried.epoch, ...(died ? { previous: tried.previous } : {}) });
        lease.watch();
        return lease;
      }
      if (tried === null && !onStandby) {
        onStandby = true;
        options.logger.info('standby: another replica holds the writer lease');
        options.standby?.();
      }
      await sleep(options.checkMs);
    }
  }

  /** Whether the lease is this replica's for certain right now: renewed within the trusted time, not taken. */
  held(): boolean {
    return !this.ended && performance.now() < this.trustedUntil;
  }

  private watch(): void {
    this.timer = setInterval(() => void this.renew(), this.options.checkMs);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.ended) return;
    this.renewing = true;
    const sentAt = performance.now();
    try {
      const once = () =>
        this.connection
          .tried(
            async (client) =>
              (await client.query(statement('lease-renew'), [this.holder, this.epoch, this.options.leaseMs])).rows.length > 0,
          )
          .catch((error: Error) => {
            // Refused rather than unanswered (a statement error): the lease is not renewed, as if unanswered.
            this.options.logger.error('the writer lease renewal failed', { error: error.message });
            return undefined;
          });
      // Unanswered: once more at once, on a new connection (the last one was given up).
      const renewed = (await once()) ?? (await once());
      if (renewed === false) return this.depose(`another replica took the writer lease (this one held epoch ${this.epoch})`);
      if (renewed === true) {
        this.trustedUntil = sentAt + this.options.leaseMs * TRUSTED;
        if (this.unconfirmedSince !== undefined)
          this.options.logger.info('the writer lease is renewed again: taking writes', {
            epoch: this.epoch,
            unconfirmedMs: Math.round(performance.now() - this.unconfirmedSince),
          });
        this.unconfirmedSince = undefined;
      } else if (this.unconfirmedSince === undefined && !this.held()) {
        this.unconfirmedSince = performance.now();
        this.options.logger.warn('the writer lease cannot be renewed: writes are refused until PostgreSQL answers', { epoch: this.epoch });
      }
    } finally {
      this.renewing = false;
    }
  }

  private depose(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    void this.connection.close();
    this.options.deposed(reason);
  }

  /** Lets the lease go cleanly (a graceful stop): the next holder takes it at once and does not wait. */
  async release(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    while (this.renewing) await sleep(10);
    await this.connection.tried((client) => client.query(statement('lease-release'), [this.holder, this.epoch]));
    await this.connection.close();
  }
}
