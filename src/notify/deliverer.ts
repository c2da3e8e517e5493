import { randomUUID } from 'node:crypto';
import { systemEventQuads } from '../activities/ingest.js';
import type { Logger } from '../logger.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
import type { NotificationEndpoints } from './endpoints.js';
import type { NotifyConfig } from './notify-config.js';
import type { Outbox, PendingDelivery, Recorded } from './outbox.js';
import { nextStep } from './retry-schedule.js';
import { sendSignal, type SendResult } from './send-signal.js';
import { webhookHeaders } from './signing.js';

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
}

// setTimeout cannot wait longer than this; a later retry is re-armed on the next pass.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Delivers what the outbox holds, in the background. Deliveries queue per consignment × receiver and
 * only the oldest of each queue is attempted, so a signal never overtakes one raised before it, even
 * while that one is being retried. Every outcome is committed before the next of its queue is looked at.
 */
export class Deliverer {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly now: () => number;
  private readonly random: () => number;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private passing = false;
  private again = false;
  /** Bumped with every outcome written, so a pass can tell its snapshot of the outbox went stale. */
  private version = 0;
  private readonly unsigned = new Set<string>();

  constructor(private readonly deps: DelivererDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
  }

  /** Begins delivering, including whatever a previous run left pending. */
  start(): void {
    this.started = true;
    this.wake();
  }

  /** Looks at the outbox again now (after an activity was committed or an endpoint changed). */
  wake(): void {
    if (!this.started || this.stopping.signal.aborted) return;
    void this.pass();
  }

  /** Stops: attempts under way are abandoned (they stay pending, for the next start) and awaited. */
  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async pass(): Promise<void> {
    if (this.passing) {
      this.again = true;
      return;
    }
    this.passing = true;
    try {
      do {
        this.again = false;
        await this.scan();
      } while (this.again && !this.stopping.signal.aborted);
    } catch (error) {
      this.deps.logger.error('signal delivery pass failed', { error: (error as Error).message });
      this.arm(this.now() + this.deps.config.baseMs);
    } finally {
      this.passing = false;
    }
  }

  private async scan(): Promise<void> {
    const version = this.version;
    const pending = await this.deps.outbox.pending();
    if (version !== this.version) {
      this.again = true;
      return;
    }
    if (this.stopping.signal.aborted) return;
    const heads = new Map<string, PendingDelivery>();
    for (const d of pending) {
      const queue = `${d.consignment} ${d.receiver}`;
      if (!heads.has(queue)) heads.set(queue, d);
    }
    const now = this.now();
    let earliest = Infinity;
    for (const d of heads.values()) {
      if (this.inFlight.has(d.delivery)) continue;
      if (d.nextAttempt > now) {
        earliest = Math.min(earliest, d.nextAttempt);
        continue;
      }
      // Full: each finishing attempt wakes another pass, which picks up the rest.
      if (this.inFlight.size >= this.deps.config.concurrency) break;
      this.launch(d);
    }
    this.arm(earliest);
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!Number.isFinite(at) || this.stopping.signal.aborted) return;
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(0, at - this.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private launch(d: PendingDelivery): void {
    const attempt = this.attempt(d)
      .catch((error: unknown) => this.deps.logger.error('signal delivery attempt failed', { delivery: d.delivery, error: (error as Error).message }))
      .finally(() => {
        this.inFlight.delete(d.delivery);
        this.wake();
      });
    this.inFlight.set(d.delivery, attempt);
  }

  private async attempt(d: PendingDelivery): Promise<void> {
    const at = new Date(this.now());
    const result = await this.send(d, at);
    if (result.kind === 'stopped' || this.stopping.signal.aborted) return;
    const finished = new Date(this.now());
    const recorded = this.outcome(d, result, finished);
    const ops = this.deps.outbox.recordOps(d, recorded);
    if (recorded.state !== 'pending') ops.push(...this.systemEventOps(d, recorded));
    if (recorded.state === 'failed') this.deps.logger.warn('signal not delivered', { signal: d.signal, receiver: d.receiver, error: recorded.error });
    this.version++;
    const { durable } = await this.deps.store.commit({ ops });
    await durable;
  }

  private async send(d: PendingDelivery, at: Date): Promise<SendResult> {
    const endpoint = this.deps.endpoints.of(d.receiver);
    if (!endpoint) return { kind: 'retry', error: 'the receiver has no notification endpoint' };
    let headers: Record<string, string>;
    try {
      headers = webhookHeaders(d.signal, d.body, endpoint.secret, at);
    } catch (error) {
      return { kind: 'retry', error: `the receiver's notification secret is unusable: ${(error as Error).message}` };
    }
    if (endpoint.secret === undefined && !this.unsigned.has(d.receiver)) {
      this.unsigned.add(d.receiver);
      this.deps.logger.warn('sending unsigned signals: the receiver has no notificationSecret', { receiver: d.receiver });
    }
    return sendSignal({
      url: endpoint.url, body: d.body, headers: { ...headers, 'user-agent': this.deps.nodeName },
      timeoutMs: this.deps.config.timeoutMs, stop: this.stopping.signal,
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
  private systemEventOps(d: PendingDelivery, recorded: Exclude<Recorded, { state: 'pending' }>): ChangeOp[] {
    const id = `urn:uuid:${randomUUID()}`;
    const org = this.deps.registry.organisation(d.receiver);
    const json = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id,
      type: 'SystemEvent',
      typeCode: recorded.state === 'delivered' ? 'SIGNAL_DELIVERED' : 'SIGNAL_FAILED',
      source: { id: this.deps.nodeName, type: 'Application', detail: {} },
      object: {
        id: d.signal,
        type: d.type,
        detail: {
          receiver: d.receiver,
          ...(org ? { receiverName: org.name, receiverRole: org.role } : {}),
          attempts: d.attempts + 1,
          ...(recorded.status !== undefined ? { lastStatus: recorded.status } : {}),
          ...(recorded.state === 'failed' ? { error: recorded.error } : {}),
        },
      },
      target: { id: d.globalId, type: 'Consignment', detail: { identifier: d.identifier } },
      date: recorded.at.toISOString(),
    };
    return [{ op: 'insert', nquads: systemEventQuads(id, d.consignment, d.owner, json, this.deps.allocateSeq()) }];
  }
}
