import { randomUUID } from 'node:crypto';
import { named, systemEventQuads, valued } from '../catalog/system-events.js';
import { stamp } from '../rdf/date-times.js';
import type { Registry } from '../registry/registry.js';
import type { ChangeOp } from '../ports/quad-store.js';
import type { DeliveryDetails, PendingDelivery, Recorded } from './outbox.js';
import { nextStep, type RetryPolicy } from './retry-schedule.js';
import type { SendResult } from './send-signal.js';

/** What one attempt's answer comes to: delivered, failed for good, or pending with its next try. */
export function attemptOutcome(
  d: PendingDelivery,
  result: Exclude<SendResult, { kind: 'stopped' }>,
  at: Date,
  policy: RetryPolicy,
  random: number,
): Recorded {
  switch (result.kind) {
    case 'delivered':
      return { state: 'delivered', status: result.status, at };
    case 'gone':
      return { state: 'failed', status: result.status, error: 'the receiver answered 410 Gone; not retried', at };
    case 'retry': {
      const next = nextStep(d.attempts + 1, d.queuedAt, at.getTime(), policy, random);
      return 'giveUp' in next
        ? { state: 'failed', status: result.status, error: `${result.error}; given up after ${d.attempts + 1} attempts`, at }
        : { state: 'pending', status: result.status, error: result.error, at, retryAt: new Date(next.retryAt) };
    }
  }
}

/** SIGNAL_DELIVERED / SIGNAL_FAILED in the consignment's systemEvents, published on its owner's behalf. */
export function signalEventOps(
  d: PendingDelivery,
  details: DeliveryDetails,
  recorded: Exclude<Recorded, { state: 'pending' }>,
  context: { registry: Registry; nodeName: string; seq: number },
): ChangeOp[] {
  const id = `urn:uuid:${randomUUID()}`;
  const org = context.registry.organisation(d.receiver);
  const json = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id,
    type: 'SystemEvent',
    typeCode: recorded.state === 'delivered' ? 'SIGNAL_DELIVERED' : 'SIGNAL_FAILED',
    source: { id: context.nodeName, type: 'Application', detail: {} },
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
  return [{ op: 'insert', nquads: systemEventQuads(id, details.consignment, details.owner, json, context.seq) }];
}
