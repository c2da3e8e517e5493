import { randomUUID } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { iri } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc, XSD } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { Bindings, ChangeOp, QuadStore } from '../ports/quad-store.js';
import type { SignalType } from './signals.js';
import { stamp } from '../rdf/date-times.js';

const DATE_TIME = `${XSD}dateTime`;

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface QueuedSignal {
  id: string;
  type: SignalType;
  /** The consignment record (urn:dataspace:consignment:*) the signal is about. */
  consignment: string;
  body: string;
  published: Date;
  activity: string;
}

/** One delivery a commit queues: named before the commit, so the receivers' ledger can be told of it after. */
export interface QueuedDelivery {
  receiver: string;
  /** The consignment record the signal is about: the deliverer's queue key, known without a read. */
  consignment: string;
  seq: number;
  delivery: string;
  type: SignalType;
  published: Date;
}

/** A new delivery's IRI. */
export const newDelivery = (): string => `urn:dataspace:delivery:${randomUUID()}`;

/** A delivery still to be made: what the deliverer keeps in memory to order and schedule it. */
export interface PendingDelivery {
  delivery: string;
  receiver: string;
  consignment: string;
  seq: number;
  attempts: number;
  queuedAt: number;
  nextAttempt: number;
}

/** What attempting a delivery needs beyond its keys; read from the store when it is attempted. */
export interface DeliveryDetails {
  signal: string;
  type: SignalType;
  body: string;
  consignment: string;
  owner: string;
  globalId: string;
  identifier: string;
}

/** Where one delivery stands, as both its publisher and its receiver may see it. */
export interface DeliveryProgress {
  signal: string;
  type: SignalType;
  published: string;
  state: DeliveryState;
  attempts: number;
  /** Each left out (never null) until there is one: views answer a field of its type or none. */
  lastStatus?: number;
  lastError?: string;
  lastAttempt?: string;
  nextAttempt?: string;
  completed?: string;
}

/** One delivery as the publisher sees it (GET …/deliveries). */
export interface DeliveryRow extends DeliveryProgress {
  receiver: string;
  queued: string;
}

/** What one attempt came to, as the outbox records it. */
export type Recorded =
  | { state: 'delivered'; status: number; at: Date }
  | { state: 'pending'; status?: number; error: string; at: Date; retryAt: Date }
  | { state: 'failed'; status?: number; error: string; at: Date };

// Everything about a delivery that changes with an attempt; replaced as a whole each time.
const MUTABLE = ['state', 'attempts', 'lastStatus', 'lastError', 'lastAttempt', 'nextAttempt', 'completed', 'queueEntry'];

function value(row: Bindings, name: string): string | undefined {
  return row.get(name)?.value;
}

/** The progress columns of a deliveries query row (sparql/notify/deliveries-*.rq). */
export function deliveryProgress(row: Bindings): DeliveryProgress {
  const lastStatus = value(row, 'lastStatus');
  const progress: DeliveryProgress = {
    signal: value(row, 'signal')!,
    type: value(row, 'type') as SignalType,
    published: value(row, 'published')!,
    state: value(row, 'state') as DeliveryState,
    attempts: Number(value(row, 'attempts')),
  };
  if (lastStatus !== undefined) progress.lastStatus = Number(lastStatus);
  for (const field of ['lastError', 'lastAttempt', 'nextAttempt', 'completed'] as const) {
    const v = value(row, field);
    if (v !== undefined) progress[field] = v;
  }
  return progress;
}

type QueueEntry = Omit<PendingDelivery, 'delivery'>;

function pendingDelivery(row: Bindings): PendingDelivery {
  return { delivery: value(row, 'delivery')!, ...(JSON.parse(value(row, 'entry')!) as QueueEntry) };
}

/** The queue entry a pending delivery carries (svc:queueEntry), removed once it is delivered or failed. */
function entryJson(d: Omit<PendingDelivery, 'delivery'>): string {
  const entry: QueueEntry = {
    receiver: d.receiver,
    consignment: d.consignment,
    seq: d.seq,
    attempts: d.attempts,
    queuedAt: d.queuedAt,
    nextAttempt: d.nextAttempt,
  };
  return JSON.stringify(entry);
}

/**
 * The persistent outbox: signals and their deliveries as RDF in the outbox graph. Queuing returns
 * change ops that join the accepted activity's own commit; recording an attempt is one commit, so
 * what the write-ahead log holds is what a restart resumes.
 */
export class Outbox {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
  ) {}

  /** Ops that queue `signal` once per receiver, as the deliveries named; each one's seq orders it in its receiver's queue. */
  queueOps(signal: QueuedSignal, receivers: readonly Pick<QueuedDelivery, 'receiver' | 'seq' | 'delivery'>[]): ChangeOp[] {
    const at = stamp(signal.published);
    const b = new NQuadsBuilder(GRAPHS.outbox)
      .iri(signal.id, RDF_TYPE, svc('Signal'))
      .literal(signal.id, svc('signalType'), signal.type)
      .iri(signal.id, svc('consignment'), signal.consignment)
      .literal(signal.id, svc('body'), signal.body)
      .literal(signal.id, svc('published'), at, DATE_TIME)
      .iri(signal.id, svc('activity'), signal.activity);
    for (const { receiver, seq, delivery: d } of receivers) {
      b.iri(d, RDF_TYPE, svc('Delivery'))
        .iri(d, svc('signal'), signal.id)
        .iri(d, svc('receiver'), receiver)
        .literal(d, svc('seq'), seq)
        .literal(d, svc('queued'), at, DATE_TIME)
        .literal(d, svc('state'), 'pending')
        .literal(d, svc('attempts'), 0)
        .literal(d, svc('nextAttempt'), at, DATE_TIME)
        .literal(
          d,
          svc('queueEntry'),
          entryJson({
            receiver,
            consignment: signal.consignment,
            seq,
            attempts: 0,
            queuedAt: signal.published.getTime(),
            nextAttempt: signal.published.getTime(),
          }),
        );
    }
    return [{ op: 'insert', nquads: b.toString() }];
  }

  /** Every pending delivery, at start. */
  async pending(): Promise<PendingDelivery[]> {
    return (await this.store.select(this.queries.text('notify/pending-deliveries'))).map(pendingDelivery);
  }

  async details(delivery: string): Promise<DeliveryDetails | undefined> {
    const [row] = await this.store.select(this.queries.bind('notify/delivery', { delivery: iri(delivery) }));
    if (!row) return undefined;
    return {
      signal: value(row, 'signal')!,
      type: value(row, 'type') as SignalType,
      body: value(row, 'body')!,
      consignment: value(row, 'consignment')!,
      owner: value(row, 'owner')!,
      globalId: value(row, 'globalId')!,
      identifier: value(row, 'identifier')!,
    };
  }

  /** Ops that record one attempt's outcome on a delivery. */
  recordOps(delivery: PendingDelivery, outcome: Recorded): ChangeOp[] {
    const d = delivery.delivery;
    const b = new NQuadsBuilder(GRAPHS.outbox)
      .literal(d, svc('state'), outcome.state)
      .literal(d, svc('attempts'), delivery.attempts + 1)
      .literal(d, svc('lastAttempt'), stamp(outcome.at), DATE_TIME);
    if (outcome.status !== undefined) b.literal(d, svc('lastStatus'), outcome.status);
    if (outcome.state !== 'delivered') b.literal(d, svc('lastError'), outcome.error);
    if (outcome.state === 'pending') {
      b.literal(d, svc('nextAttempt'), stamp(outcome.retryAt), DATE_TIME).literal(
        d,
        svc('queueEntry'),
        entryJson({ ...delivery, attempts: delivery.attempts + 1, nextAttempt: outcome.retryAt.getTime() }),
      );
    } else b.literal(d, svc('completed'), stamp(outcome.at), DATE_TIME);
    return [
      ...MUTABLE.map((p): ChangeOp => ({
        op: 'deleteMatching',
        subject: iriToString(d),
        predicate: iriToString(svc(p)),
        object: null,
        graph: GRAPHS.outbox,
      })),
      { op: 'insert', nquads: b.toString() },
    ];
  }

  /**
   * Ops that queue a delivered or failed delivery again (a redelivery the receiver asked for): pending,
   * attempted from `at`, its retries counted afresh; the signal, its seq and its receiver are kept.
   */
  requeueOps(delivery: PendingDelivery, at: Date): ChangeOp[] {
    const d = delivery.delivery;
    const b = new NQuadsBuilder(GRAPHS.outbox)
      .literal(d, svc('state'), 'pending')
      .literal(d, svc('attempts'), 0)
      .literal(d, svc('nextAttempt'), stamp(at), DATE_TIME)
      .literal(d, svc('queueEntry'), entryJson({ ...delivery, attempts: 0, queuedAt: at.getTime(), nextAttempt: at.getTime() }));
    return [
      ...MUTABLE.map((p): ChangeOp => ({
        op: 'deleteMatching',
        subject: iriToString(d),
        predicate: iriToString(svc(p)),
        object: null,
        graph: GRAPHS.outbox,
      })),
      { op: 'insert', nquads: b.toString() },
    ];
  }

  async ofConsignment(consignment: string): Promise<DeliveryRow[]> {
    const rows = await this.store.select(this.queries.bind('notify/deliveries-of-consignment', { consignment: iri(consignment) }));
    return rows.map((row) => ({ ...deliveryProgress(row), receiver: value(row, 'receiver')!, queued: value(row, 'queued')! }));
  }
}
