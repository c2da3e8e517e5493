import { randomUUID } from 'node:crypto';
import type { Accepted, WriteContext, WriteContributor } from '../activities/accepted.js';
import { storedRoute } from '../activities/event-rules.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeOp, QuadStore } from '../store/quad-store.js';
import type { NotificationEndpoints } from './endpoints.js';
import type { Outbox } from './outbox.js';
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
   * Activities whose commit queued deliveries, until the deliverer takes them up: most activities
   * queue none, and asking the outbox for each would cost a query per activity. An activity whose
   * commit then failed stays listed; that costs a few bytes, never a wrong delivery.
   */
  private readonly queuedBy = new Set<string>();

  constructor(private readonly deps: SignalContributorDeps) {}

  /** Whether `activity` queued deliveries (asked once, after its commit is durable). */
  takeQueued(activity: string): boolean {
    return this.queuedBy.delete(activity);
  }

  async contribute(accepted: Accepted, context: WriteContext): Promise<ChangeOp[]> {
    const trigger = triggerOf(accepted);
    if (!trigger) return [];
    const { consignment } = accepted;
    const route =
      trigger.audience === 'routeOperators' ? await storedRoute(this.deps.store, this.deps.queries, consignment.consignment) : [];
    const receivers = receiversOf(trigger.audience, this.deps.registry.all(), route, (id) => this.deps.endpoints.of(id) !== undefined);
    if (receivers.length === 0) return [];
    this.queuedBy.add(context.activity);
    const id = `urn:uuid:${randomUUID()}`;
    const payload = signalPayload({
      id,
      trigger,
      published: context.now,
      globalId: consignment.globalId,
      identifier: consignment.identifier,
      baseUrl: this.deps.baseUrl,
    });
    return this.deps.outbox.queueOps(
      {
        id,
        type: trigger.type,
        consignment: consignment.consignment,
        body: JSON.stringify(payload),
        published: context.now,
        activity: context.activity,
      },
      receivers.map((r) => ({ receiver: r.id, seq: this.deps.allocateSeq() })),
    );
  }
}
