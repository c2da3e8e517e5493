import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../../core/logger.js';
import { attemptOutcome } from '../../../core/notify/attempt-outcome.js';
import type { NotifyConfig } from '../../../core/notify/notify-config.js';
import type { DeliveryDetails, Outbox, PendingDelivery, Recorded } from '../../../core/notify/outbox.js';
import type { SendResult } from '../../../core/notify/send-signal.js';
import { StoreHealth, storeRetryDelay } from '../../../core/notify/store-retry.js';
import type { WebhookSender } from '../../../core/notify/webhook-sender.js';
import type { DeliveryRows } from './delivery-rows.js';

export interface ClaimingDeps {
  rows: DeliveryRows;
  /** This replica, as its claims name it: host:pid:tag. */
  holder: string;
  /** How long a claim holds (PostgreSQL's clock): an attempt's time-out and then some (set-deliveries.ts). */
  claimMs: number;
  /** How often queues are looked at whatever this replica heard: what another replica entered or let go. */
  pollMs: number;
  outbox: Pick<Outbox, 'details'>;
  sender: WebhookSender;
  config: NotifyConfig;
  logger: Logger;
  now?: () => number;
  random?: () => number;
  /** Told each outcome written (for metrics); retry = stays pending for a later attempt. */
  onRecorded?: (outcome: 'delivered' | 'failed' | 'retry') => void;
  /** Told once an outcome is in PostgreSQL: the writer records it in the store. */
  written?: () => void;
}

/**
 * One replica's part in delivering a set's signals (docs/replicas.md): it claims in PostgreSQL the
 * heads of consignment × receiver queues that are due, for a limited time, sends each, and writes
 * the outcome there, which lets the next of the queue out. Any replica may hold any claim; one that
 * dies leaves its claims to expire and another takes them, sending the signal again with its one
 * webhook id. Claims are made when this replica has free slots: at most `concurrency` attempts at
 * once, half of them (at least one) to one receiver, as the in-process deliverer.
 */
export class ClaimingDeliverer {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly inFlightTo = new Map<string, number>();
  private readonly stopping = new AbortController();
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly health: StoreHealth;
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private again = false;
  private claimFailures = 0;
  private readFailures = 0;

  constructor(private readonly deps: ClaimingDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.health = new StoreHealth(deps.logger);
  }

  start(): void {
    this.timer = setInterval(() => this.pass(), this.deps.pollMs);
    this.timer.unref();
    this.pass();
  }

  /** Attempts under way here. */
  get sending(): number {
    return this.inFlight.size;
  }

  /** Claims what is due, up to the free slots; a call while one runs makes it claim once more. */
  pass(): void {
    if (this.stopping.signal.aborted) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch(async (error: unknown) => {
        this.health.failed('claiming deliveries', error);
        const wait = storeRetryDelay(++this.claimFailures, this.deps.config.baseMs);
        await sleep(wait, undefined, { ref: false, signal: this.stopping.signal }).catch(() => undefined);
      })
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.pass();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearInterval(this.timer);
    await this.claiming;
    const held = [...this.inFlight.keys()];
    await Promise.allSettled([...this.inFlight.values()]);
    // Abandoned attempts are due again at once, for any replica, rather than after their claim expires.
    await this.deps.rows.release(this.deps.holder, held, 0).catch(() => undefined);
  }

  private get perReceiver(): number {
    return Math.max(1, Math.floor(this.deps.config.concurrency / 2));
  }

  private async claim(): Promise<void> {
    const free = this.deps.config.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const busy = [...this.inFlightTo].filter(([, n]) => n >= this.perReceiver).map(([receiver]) => receiver);
    const claimed = await this.deps.rows.claim(this.deps.holder, this.deps.claimMs, free, busy);
    this.claimFailures = 0;
    this.health.answered();
    const over: string[] = [];
    for (const d of claimed) {
      if (this.stopping.signal.aborted || (this.inFlightTo.get(d.receiver) ?? 0) >= this.perReceiver) over.push(d.delivery);
      else this.launch(d);
    }
    // Several heads of one receiver's queues in one claim: those past its share go back at once.
    await this.deps.rows.release(this.deps.holder, over, 0);
    if (claimed.length === free && over.length === 0) this.again = true;
  }

  private launch(d: PendingDelivery): void {
    const attempt = this.attempt(d)
      .catch((error: unknown) => this.deps.logger.error('a signal delivery failed unexpectedly', { error: (error as Error).message }))
      .finally(() => {
        this.inFlight.delete(d.delivery);
        const left = (this.inFlightTo.get(d.receiver) ?? 1) - 1;
        if (left > 0) this.inFlightTo.set(d.receiver, left);
        else this.inFlightTo.delete(d.receiver);
        this.pass();
      });
    this.inFlight.set(d.delivery, attempt);
    this.inFlightTo.set(d.receiver, (this.inFlightTo.get(d.receiver) ?? 0) + 1);
  }

  private async attempt(d: PendingDelivery): Promise<void> {
    let details: DeliveryDetails | undefined;
    try {
      details = await this.deps.outbox.details(d.delivery);
      this.readFailures = 0;
    } catch (error) {
      // The store is away: the claim goes back, due again after a bounded wait, for any replica.
      this.health.failed('reading a signal', error);
      await this.deps.rows.release(this.deps.holder, [d.delivery], storeRetryDelay(++this.readFailures, this.deps.config.baseMs));
      return;
    }
    const result: SendResult = details
      ? await this.deps.sender.send(d.receiver, details, new Date(this.now()), this.stopping.signal)
      : { kind: 'retry', error: 'the store has no such delivery or signal' };
    if (result.kind === 'stopped' || this.stopping.signal.aborted) return;
    const recorded = attemptOutcome(d, result, new Date(this.now()), this.deps.config, this.random());
    if (recorded.state === 'failed')
      this.deps.logger.warn('signal not delivered', { signal: details?.signal, receiver: d.receiver, error: recorded.error });
    await this.write(d, recorded, details);
  }

  /**
   * The outcome, tried again while PostgreSQL cannot be reached, until the claim would have expired:
   * after that another replica may hold it, and sends the signal again.
   */
  private async write(d: PendingDelivery, recorded: Recorded, details: DeliveryDetails | undefined): Promise<void> {
    const until = this.now() + this.deps.claimMs;
    for (let failures = 1; ; failures++) {
      try {
        const kept = await this.deps.rows.outcome(this.deps.holder, d, recorded, details);
        if (kept) {
          this.deps.onRecorded?.(recorded.state === 'pending' ? 'retry' : recorded.state);
          this.deps.written?.();
        }
        return;
      } catch (error) {
        if (this.stopping.signal.aborted || this.now() > until) {
          this.deps.logger.warn('a signal outcome could not be written: the delivery is sent again', {
            delivery: d.delivery,
            error: (error as Error).message,
          });
          return;
        }
        await sleep(storeRetryDelay(failures, this.deps.config.baseMs), undefined, { ref: false, signal: this.stopping.signal }).catch(
          () => undefined,
        );
      }
    }
  }
}
