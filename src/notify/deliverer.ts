import { randomUUID } from 'node:crypto';
import { systemEventNote } from '../catalog/change-notes.js';
import { named, systemEventQuads, valued } from '../catalog/system-events.js';
import type { Logger } from '../logger.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
import type { NotificationEndpoints } from './endpoints.js';
import type { NotifyConfig } from './notify-config.js';
import type { DeliveryDetails, Outbox, PendingDelivery, Recorded } from './outbox.js';
import { nextStep } from './retry-schedule.js';
import { sendSignal, type SendResult } from './send-signal.js';
import { webhookHeaders } from './signing.js';
import { HostPolicy } from '../documents/host-policy.js';
import { commitDurably } from '../store/commit-durably.js';
import { stamp } from '../rdf/date-times.js';

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
 */
export class Deliverer {
  private readonly queues = new Map<string, PendingDelivery[]>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Attempts under way per receiver: one receiver holds at most `perReceiver` of the slots. */
  private readonly inFlightTo = new Map<string, number>();
  private readonly stopping = new AbortController();
  private readonly now: () => number;
  private readonly random: () => number;
  /** Loads into the queues, one after another, so deliveries join them in commit order. */
  private loading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly unsigned = new Set<string>();
  /** Endpoints registered over the API reach only what DATASPACE_NOTIFY_ALLOW allows. */
  private readonly policy: HostPolicy;

  constructor(private readonly deps: DelivererDeps) {
    this.policy = new HostPolicy(deps.config.allow ?? ['*']);
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  /** Begins delivering, starting with whatever a previous run left pending. */
  start(): void {
    this.load(() => this.deps.outbox.pending());
  }

  /** Takes up the deliveries an activity queued; called once its commit is durable. */
  queued(activity: string): void {
    this.load(() => this.deps.outbox.queuedBy(activity));
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

  private load(read: () => Promise<PendingDelivery[]>): void {
    this.loading = this.loading
      .then(async () => {
        if (this.stopping.signal.aborted) return;
        for (const d of await read()) this.enqueue(d);
        this.pass();
      })
      .catch((error: unknown) => this.deps.logger.error('could not read the outbox', { error: (error as Error).message }));
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
    queue.splice(i, 0, d);
  }

  private pass(): void {
    if (this.stopping.signal.aborted) return;
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
        // The outcome could not be recorded: try again later rather than in a tight loop.
        d.nextAttempt = this.now() + this.deps.config.baseMs;
        this.deps.logger.error('signal delivery attempt failed', { delivery: d.delivery, error: (error as Error).message });
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

  private async attempt(key: string, d: PendingDelivery): Promise<void> {
    const details = await this.deps.outbox.details(d.delivery);
    if (!details) throw new Error(`delivery ${d.delivery} has no signal or consignment in the store`);
    const result = await this.send(d, details, new Date(this.now()));
    if (result.kind === 'stopped' || this.stopping.signal.aborted) return;
    const recorded = this.outcome(d, result, new Date(this.now()));
    const ops = this.deps.outbox.recordOps(d, recorded);
    if (recorded.state !== 'pending') ops.push(...this.systemEventOps(d, details, recorded));
    if (recorded.state === 'failed')
      this.deps.logger.warn('signal not delivered', { signal: details.signal, receiver: d.receiver, error: recorded.error });
    // A system event changes the consignment's read view: the note tells the change feed's followers.
    const notes = recorded.state === 'pending' ? [] : [systemEventNote(details.consignment)];
    await commitDurably(this.deps.store, { ops, notes });
    this.deps.onRecorded?.(recorded.state === 'pending' ? 'retry' : recorded.state);
    if (recorded.state === 'pending') {
      d.attempts += 1;
      d.nextAttempt = recorded.retryAt.getTime();
    } else {
      const queue = this.queues.get(key);
      queue?.splice(queue.indexOf(d), 1);
      if (queue?.length === 0) this.queues.delete(key);
    }
  }

  private async send(d: PendingDelivery, details: DeliveryDetails, at: Date): Promise<SendResult> {
    const endpoint = this.deps.endpoints.of(d.receiver);
    if (!endpoint) return { kind: 'retry', error: 'the receiver has no notification endpoint' };
    let headers: Record<string, string>;
    try {
      headers = webhookHeaders(details.signal, details.body, endpoint.secret, at);
    } catch (error) {
      return { kind: 'retry', error: `the receiver's notification secret is unusable: ${(error as Error).message}` };
    }
    if (endpoint.secret === undefined && !this.unsigned.has(d.receiver)) {
      this.unsigned.add(d.receiver);
      this.deps.logger.warn('sending unsigned signals: the receiver has no notificationSecret', { receiver: d.receiver });
    }
    return sendSignal({
      url: endpoint.url,
      body: details.body,
      headers: { ...headers, 'user-agent': this.deps.nodeName },
      timeoutMs: this.deps.config.timeoutMs,
      stop: this.stopping.signal,
      policy: endpoint.trusted ? undefined : this.policy,
    });
  }

  private outcome(d: PendingDelivery, result: Exclude<SendResult, { kind: 'stopped' }>, at: Date): Recorded {
    switch (result.kind) {
      case 'delivered':
        return { state: 'delivered', status: result.status, at };
      case 'gone':
        return { state: 'failed', status: result.status, error: 'the receiver answered 410 Gone; not retried', at };
      case 'retry': {
        const next = nextStep(d.attempts + 1, d.queuedAt, at.getTime(), this.deps.config, this.random());
        return 'giveUp' in next
          ? { state: 'failed', status: result.status, error: `${result.error}; given up after ${d.attempts + 1} attempts`, at }
          : { state: 'pending', status: result.status, error: result.error, at, retryAt: new Date(next.retryAt) };
      }
    }
  }

  /** SIGNAL_DELIVERED / SIGNAL_FAILED in the consignment's systemEvents, published on its owner's behalf. */
  private systemEventOps(d: PendingDelivery, details: DeliveryDetails, recorded: Exclude<Recorded, { state: 'pending' }>): ChangeOp[] {
    const id = `urn:uuid:${randomUUID()}`;
    const org = this.deps.registry.organisation(d.receiver);
    const json = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'SystemEvent',
      typeCode: recorded.state === 'delivered' ? 'SIGNAL_DELIVERED' : 'SIGNAL_FAILED',
      source: { id: this.deps.nodeName, type: 'Application', detail: {} },
      object: {
        id: details.signal,
        type: details.type,
        detail: {
          receiver: named(d.receiver),
          ...(org ? { receiverName: valued(org.name), receiverRole: valued(org.role) } : {}),
          attempts: valued(d.attempts + 1),
          ...(recorded.status !== undefined ? { lastStatus: valued(recorded.status) } : {}),
          ...(recorded.state === 'failed' ? { error: valued(recorded.error) } : {}),
        },
      },
      target: { id: details.globalId, type: 'Consignment', detail: { identifier: valued(details.identifier) } },
      date: stamp(recorded.at),
    };
    return [{ op: 'insert', nquads: systemEventQuads(id, details.consignment, details.owner, json, this.deps.allocateSeq()) }];
  }
}
