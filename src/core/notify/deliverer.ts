import { systemEventNote } from '../catalog/change-notes.js';
import type { Logger } from '../logger.js';
import type { Registry } from '../registry/registry.js';
import type { QuadStore } from '../ports/quad-store.js';
import type { NotificationEndpoints } from './endpoints.js';
import type { NotifyConfig } from './notify-config.js';
import type { DeliveryDetails, Outbox, PendingDelivery } from './outbox.js';
import type { SendResult } from './send-signal.js';
import type { SignalDelivery } from './signal-delivery.js';
import { WebhookSender } from './webhook-sender.js';
import { commitDurably } from '../store/commit-durably.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { MISSING_LIMIT, StoreHealth, storeRetryDelay, type Held } from './store-retry.js';
import { attemptOutcome, signalEventOps } from './attempt-outcome.js';

export interface DelivererDeps {
  store: QuadStore;
  outbox: Outbox;
  registry: Registry;
  endpoints: NotificationEndpoints;
  config: NotifyConfig;
  logger: Logger;
  nodeName: string;
  allocateSeq: () => number;
  now?: () => number;
  random?: () => number;
  /** Told each recorded attempt's outcome (for metrics); retry = stays pending for a later attempt. */
  onRecorded?: (outcome: 'delivered' | 'failed' | 'retry') => void;
}

// setTimeout cannot wait longer than this; a later retry is re-armed when the timer fires.
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Delivers what the outbox holds, in the background. Deliveries queue per consignment × receiver and
 * only the oldest of each queue is attempted, so a signal never overtakes one raised before it, even
 * while that one is being retried. The store is the record (every outcome is committed before the
 * next of its queue is tried); the queues are kept in memory too, so scheduling costs no query.
 * A step the store failed (reading a signal, recording an outcome, reading what is pending at start)
 * keeps its delivery at the head of its queue and is tried again with a bounded backoff, so a store
 * that was away holds signals back but loses none and lets none overtake another.
 */
export class Deliverer implements SignalDelivery {
  private readonly queues = new Map<string, PendingDelivery[]>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Attempts under way per receiver: one receiver holds at most `perReceiver` of the slots. */
  private readonly inFlightTo = new Map<string, number>();
  private readonly stopping = new AbortController();
  private readonly now: () => number;
  private readonly random: () => number;
  /** The read of what a previous run left pending, retried until it succeeds. */
  private loading: Promise<void> = Promise.resolve();
  /** Nothing is sent before that read is in: a delivery queued since could overtake an older one of its queue. */
  private loaded = false;
  private readonly held = new Map<string, Held>();
  private readonly health: StoreHealth;
  private timer: NodeJS.Timeout | undefined;
  private readonly sender: WebhookSender;

  constructor(private readonly deps: DelivererDeps) {
    this.sender = new WebhookSender(deps);
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.health = new StoreHealth(deps.logger);
  }

  /** Begins delivering, starting with whatever a previous run left pending. */
  start(): void {
    this.loading = this.loadPending();
  }

  /**
   * Takes up deliveries once their commit is durable, from what the committer knows: no read of the
   * store, so a store that fails just then loses none of them.
   */
  queued(deliveries: readonly PendingDelivery[]): void {
    for (const d of deliveries) this.enqueue(d);
    this.pass();
  }

  /** An organisation changed its endpoint: what waits for it is tried again now, not after its backoff. */
  endpointChanged(receiver: string): void {
    const now = this.now();
    for (const queue of this.queues.values()) {
      const head = queue[0];
      if (head?.receiver === receiver && !this.inFlight.has(head.delivery)) head.nextAttempt = Math.min(head.nextAttempt, now);
    }
    this.pass();
  }

  /** Deliveries waiting (in memory, no query) and when the oldest of them was queued. */
  waiting(): { count: number; oldestQueuedAt: number | undefined } {
    let count = 0;
    let oldestQueuedAt: number | undefined;
    for (const queue of this.queues.values()) {
      count += queue.length;
      for (const d of queue) if (oldestQueuedAt === undefined || d.queuedAt < oldestQueuedAt) oldestQueuedAt = d.queuedAt;
    }
    return { count, oldestQueuedAt };
  }

  /** Stops: attempts under way are abandoned (they stay pending, for the next start) and awaited. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.loading;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** How many deliveries wait, for tests and logs. */
  get backlog(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  private async loadPending(): Promise<void> {
    for (let failures = 1; !this.stopping.signal.aborted; failures++) {
      try {
        for (const d of await this.deps.outbox.pending()) this.enqueue(d);
      } catch (error) {
        this.health.failed('reading the pending deliveries', error);
        await sleep(storeRetryDelay(failures, this.deps.config.baseMs), undefined, { signal: this.stopping.signal, ref: false }).catch(
          () => undefined,
        );
        continue;
      }
      this.health.answered();
      this.loaded = true;
      this.pass();
      return;
    }
  }

  private enqueue(d: PendingDelivery): void {
    const key = `${d.consignment} ${d.receiver}`;
    const queue = this.queues.get(key);
    if (!queue) {
      this.queues.set(key, [d]);
      return;
    }
    if (queue.some((x) => x.delivery === d.delivery)) return;
    let i = queue.length;
    while (i > 0 && queue[i - 1]!.seq > d.seq) i--;
    // A head under way stays the head: an older signal asked for again goes out after it, not beside it.
    if (i === 0 && this.inFlight.has(queue[0]!.delivery)) i = 1;
    queue.splice(i, 0, d);
  }

  private pass(): void {
    if (this.stopping.signal.aborted || !this.loaded) return;
    const now = this.now();
    let earliest = Infinity;
    for (const [key, queue] of this.queues) {
      const head = queue[0];
      if (!head) {
        this.queues.delete(key);
        continue;
      }
      if (this.inFlight.has(head.delivery)) continue;
      if (head.nextAttempt > now) {
        earliest = Math.min(earliest, head.nextAttempt);
        continue;
      }
      // Full: each finishing attempt runs another pass, which picks up the rest.
      if (this.inFlight.size >= this.deps.config.concurrency) break;
      // A receiver that answers slowly or never (each attempt runs to the time-out) must not take every
      // slot: the others' signals would wait a time-out each behind it.
      if ((this.inFlightTo.get(head.receiver) ?? 0) >= this.perReceiver) continue;
      this.launch(key, head);
    }
    this.arm(earliest);
  }

  /** Half the slots (at least one): what one receiver's attempts may hold at once. */
  private get perReceiver(): number {
    return Math.max(1, Math.floor(this.deps.config.concurrency / 2));
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!Number.isFinite(at) || this.stopping.signal.aborted) return;
    this.timer = setTimeout(() => this.pass(), Math.min(Math.max(0, at - this.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private launch(key: string, d: PendingDelivery): void {
    const attempt = this.attempt(key, d)
      .catch((error: unknown) => {
        // The store failed a read or the record: the delivery stays the head of its queue, tried again
        // after a bounded wait rather than in a tight loop or not until a restart.
        const held = this.heldOf(d);
        held.failures += 1;
        d.nextAttempt = this.now() + storeRetryDelay(held.failures, this.deps.config.baseMs);
        this.health.failed('delivering a signal', error);
      })
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

  private heldOf(d: PendingDelivery): Held {
    let held = this.held.get(d.delivery);
    if (!held) this.held.set(d.delivery, (held = { failures: 0, missing: 0 }));
    return held;
  }

  private async attempt(key: string, d: PendingDelivery): Promise<void> {
    let outcome = this.held.get(d.delivery)?.outcome;
    if (!outcome) {
      const details = await this.deps.outbox.details(d.delivery);
      if (!details) return this.missing(key, d);
      const result = await this.send(d, details, new Date(this.now()));
      if (result.kind === 'stopped' || this.stopping.signal.aborted) return;
      const recorded = attemptOutcome(d, result, new Date(this.now()), this.deps.config, this.random());
      const ops = this.deps.outbox.recordOps(d, recorded);
      if (recorded.state !== 'pending')
        ops.push(
          ...signalEventOps(d, details, recorded, {
            registry: this.deps.registry,
            nodeName: this.deps.nodeName,
            seq: this.deps.allocateSeq(),
          }),
        );
      if (recorded.state === 'failed')
        this.deps.logger.warn('signal not delivered', { signal: details.signal, receiver: d.receiver, error: recorded.error });
      // A system event changes the consignment's read view: the note tells the change feed's followers.
      const notes = recorded.state === 'pending' ? [] : [systemEventNote(details.consignment)];
      // Kept until recorded: a failed commit is committed again as it stands (the same event id and seq),
      // and the signal is not sent once more for it.
      outcome = { ops, notes, recorded };
      this.heldOf(d).outcome = outcome;
    }
    await commitDurably(this.deps.store, { ops: outcome.ops, notes: outcome.notes });
    this.health.answered();
    this.held.delete(d.delivery);
    const { recorded } = outcome;
    this.deps.onRecorded?.(recorded.state === 'pending' ? 'retry' : recorded.state);
    if (recorded.state === 'pending') {
      d.attempts += 1;
      d.nextAttempt = recorded.retryAt.getTime();
    } else this.drop(key, d);
  }

  /** The store has no such delivery (or not its signal): tried a few times, then given up, loudly. */
  private missing(key: string, d: PendingDelivery): void {
    this.health.answered();
    const held = this.heldOf(d);
    held.missing += 1;
    if (held.missing < MISSING_LIMIT) {
      d.nextAttempt = this.now() + storeRetryDelay(held.missing, this.deps.config.baseMs);
      return;
    }
    this.deps.logger.error('signal delivery given up: the store has no such delivery or signal', {
      delivery: d.delivery,
      receiver: d.receiver,
      tries: held.missing,
    });
    this.held.delete(d.delivery);
    this.drop(key, d);
  }

  private drop(key: string, d: PendingDelivery): void {
    const queue = this.queues.get(key);
    queue?.splice(queue.indexOf(d), 1);
    if (queue?.length === 0) this.queues.delete(key);
  }

  private send(d: PendingDelivery, details: DeliveryDetails, at: Date): Promise<SendResult> {
    return this.sender.send(d.receiver, details, at, this.stopping.signal);
  }
}
