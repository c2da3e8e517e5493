import { randomUUID } from 'node:crypto';
import type { Accepted, WriteContext, WriteContributor } from '../activities/accepted.js';
import { storedRoute } from '../activities/event-rules.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import type { NotificationEndpoints } from './endpoints.js';
import { newDelivery, type Outbox, type QueuedDelivery } from './outbox.js';
import { receiversOf, signalPayload, triggerOf } from './signals.js';

export interface SignalContributorDeps {
  store: QuadStore;
  queries: QueryBank;
  registry: Registry;
  outbox: Outbox;
  endpoints: NotificationEndpoints;
  baseUrl: string;
  /** The ingest sequence: deliveries are numbered with it, so queue order is commit order, across restarts too. */
  allocateSeq: () => number;
}

/**
 * Queues the signals an accepted activity raises, inside the activity's own commit: a signal exists
 * exactly when its activity does. A failed or refused activity never reaches contributors.
 */
export class SignalContributor implements WriteContributor {
  /**
   * The deliveries each activity's commit queued, until the signals follower takes them: most
   * activities queue none, and asking the outbox for each would cost a query per activity. An
   * activity whose commit then failed is dropped (`abandon`), so nothing here outlives its commit.
   */
  private readonly queuedBy = new Map<string, QueuedDelivery[]>();

  constructor(private readonly deps: SignalContributorDeps) {}

  /** The deliveries `activity` queued, if any (taken once, when its commit is published). */
  takeQueued(activity: string): QueuedDelivery[] | undefined {
    const queued = this.queuedBy.get(activity);
    this.queuedBy.delete(activity);
    return queued;
  }

  abandon(activity: string): void {
    this.queuedBy.delete(activity);
  }

  async contribute(accepted: Accepted, context: WriteContext): Promise<ChangeOp[]> {
    const trigger = triggerOf(accepted);
    if (!trigger) return [];
    const { consignment } = accepted;
    const route =
      trigger.audience === 'routeOperators' ? await storedRoute(this.deps.store, this.deps.queries, consignment.consignment) : [];
    const receivers = receiversOf(trigger.audience, this.deps.registry.all(), route, (id) => this.deps.endpoints.of(id) !== undefined);
    if (receivers.length === 0) return [];
    const id = `urn:uuid:${randomUUID()}`;
    const payload = signalPayload({
      id,
      trigger,
      published: context.now,
      globalId: consignment.globalId,
      identifier: consignment.identifier,
      baseUrl: this.deps.baseUrl,
    });
    const deliveries = receivers.map((r): QueuedDelivery => ({
      receiver: r.id,
      consignment: consignment.consignment,
      seq: this.deps.allocateSeq(),
      delivery: newDelivery(),
      type: trigger.type,
      published: context.now,
    }));
    this.queuedBy.set(context.activity, [...(this.queuedBy.get(context.activity) ?? []), ...deliveries]);
    return this.deps.outbox.queueOps(
      {
        id,
        type: trigger.type,
        consignment: consignment.consignment,
        body: JSON.stringify(payload),
        published: context.now,
        activity: context.activity,
      },
      deliveries,
    );
  }
}
