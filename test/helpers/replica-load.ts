import { expect } from 'chai';
import { activity, consignment, event, newGlobalId, target } from './payloads.js';
import type { SignalReceiver } from './signal-receiver.js';
import { USERS } from './test-node.js';

const INBOX = '/supply-chain/data-space/inbox';
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;

/** What a client sent that the node never answered yet: retried with the same activity id. */
const RETRYABLE = [undefined, 502, 503, 504];

/**
 * Writers with activity ids behind a load balancer, as clients of a replica set under faults: each
 * publishes consignments (a Create, then an Add of its despatch event), sends every activity again
 * with its id until it is answered, and notes when each was acknowledged. Each request waits at most
 * `timeoutMs` (a frozen replica's connection never answers).
 */
export class ReplicaLoad {
  readonly acknowledged: string[] = [];
  /** When (Date.now()) each activity was acknowledged. */
  readonly ackedAt: number[] = [];
  retries = 0;
  private running = true;
  private readonly done: Promise<void>;

  constructor(
    private readonly url: string,
    private readonly token: string,
    writers: number,
    private readonly timeoutMs = 3_000,
  ) {
    this.done = Promise.all(Array.from({ length: writers }, () => this.writer())).then(() => undefined);
  }

  async send(body: unknown): Promise<void> {
    // What each attempt got, named in a failure: a retry's answer depends on what the ones before it did.
    const attempts: string[] = [];
    for (;;) {
      const sentAt = Date.now();
      const res = await fetch(`${this.url}${INBOX}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      }).catch(() => undefined);
      const answer = res && ((await res.json().catch(() => undefined)) as { status?: string } | undefined);
      if (res && (res.status === 200 || res.status === 201) && answer?.status === 'completed') {
        this.ackedAt.push(Date.now());
        return;
      }
      attempts.push(`${res?.status ?? 'no answer'} after ${Date.now() - sentAt} ms`);
      expect(RETRYABLE, `the inbox answered ${res?.status}: ${JSON.stringify(answer)} (attempts: ${attempts.join('; ')})`).to.include(
        res?.status,
      );
      this.retries++;
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }

  private async writer(): Promise<void> {
    while (this.running) {
      const c = consignment();
      await this.send({ ...activity('Create', USERS.forwarder.org, c), id: newGlobalId() });
      await this.send({ ...activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)), id: newGlobalId() });
      this.acknowledged.push(c.globalId as string);
    }
  }

  /** Waits until `count` more consignments are published whole. */
  async more(count: number, timeoutMs = 60_000): Promise<void> {
    const goal = this.acknowledged.length + count;
    const deadline = Date.now() + timeoutMs;
    while (this.acknowledged.length < goal) {
      if (Date.now() > deadline) throw new Error(`${count} more consignments were not published within ${timeoutMs} ms`);
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }

  /** The longest time without an acknowledgement after `from` (ms), up to the last one. */
  gapAfter(from: number): number {
    const times = [from, ...this.ackedAt.filter((t) => t > from).sort((a, b) => a - b)];
    return Math.max(0, ...times.slice(1).map((t, i) => t - times[i]!));
  }

  stop(): Promise<void> {
    this.running = false;
    return this.done;
  }

  /** 0 lost, 0 duplicates: every consignment acknowledged reads back with its one despatch event. */
  async checkAllKept(token: string): Promise<void> {
    for (const globalId of this.acknowledged) {
      let res: Response;
      for (let tries = 0; ; tries++) {
        res = await fetch(`${this.url}${view(globalId)}`, { headers: { authorization: `Bearer ${token}` } });
        if (![502, 503, 504].includes(res.status) || tries === 30) break;
        await res.body?.cancel();
        await new Promise((ok) => setTimeout(ok, 500));
      }
      const text = await res.text();
      expect(res.status, `${globalId}: ${text}`).to.equal(200);
      expect((JSON.parse(text) as { events?: unknown[] }).events, `${globalId}: one despatch, not two`).to.have.length(1);
    }
  }

  /** Every signal at least once, a consignment's PreNotification before its Despatch, one webhook id a signal. */
  async checkSignals(receiver: SignalReceiver): Promise<void> {
    const kinds = (globalId: string, received = receiver.received) =>
      received.filter((r) => r.json?.consignment?.globalId === globalId).map((r) => r.json.type as string);
    await receiver.until(
      (received) => this.acknowledged.every((g) => ['PreNotification', 'Despatch'].every((k) => kinds(g, received).includes(k))),
      60_000,
    );
    for (const globalId of this.acknowledged) {
      const arrived = kinds(globalId);
      expect(arrived.indexOf('PreNotification'), `${globalId}: ${arrived.join(', ')}`).to.be.lessThan(arrived.indexOf('Despatch'));
    }
    const ids = new Map<string, Set<string>>();
    for (const r of receiver.received) {
      const signal = `${r.json?.consignment?.globalId as string} ${r.json?.type as string}`;
      ids.set(signal, (ids.get(signal) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    for (const [signal, webhookIds] of ids) expect([...webhookIds], signal).to.have.length(1);
  }
}
