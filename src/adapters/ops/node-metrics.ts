import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QuadStore } from '../../core/ports/quad-store.js';
import type { SnapshotResult } from '../oxigraph/recovery/snapshot.js';
import { LoopDelay, RECENT_SECONDS } from './loop-delay.js';

/** What the metrics read when scraped: cheap, in-memory values, never a scan of the data. */
export interface MetricSources {
  store: QuadStore;
  /** DATASPACE_MAX_QUADS; 0 = no quota. */
  maxQuads: number;
  /**
   * The embedded store's snapshots taken so far, how long recovery took and the store itself, for the
   * removed quads its memory still holds (absent on a SPARQL server).
   */
  embedded?: {
    snapshots: readonly SnapshotResult[];
    /** The store's compactions done so far (docs/memory-compaction.md), oldest first. */
    compactions: readonly unknown[];
    recoveryMs: number;
    store: { readonly deadQuads: number; readonly ownApproximateSize: number; readonly memorySizes: { instance: string; bytes: number }[] };
  };
  /** Deliveries still to be made and when the oldest of them was queued (epoch ms). */
  backlog: () => { count: number; oldestQueuedAt: number | undefined };
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'retry';

// Process metrics describe the process, which is one however many nodes a test run builds.
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    dropGaugesEndingInTotal(processRegistry);
  }
  return processRegistry;
}

/**
 * prom-client adds `nodejs_active_{handles,requests,resources}_total`, gauges with the suffix the
 * exposition format keeps for counters: `promtool check metrics` refuses them (exit 3). Each only sums
 * the gauge of the same name without `_total` (by type), so it is dropped: `sum(nodejs_active_handles)`.
 */
function dropGaugesEndingInTotal(registry: Registry): void {
  for (const metric of registry.getMetricsAsArray()) {
    if (metric.name.endsWith('_total') && String(metric.type) === 'gauge') registry.removeSingleMetric(metric.name);
  }
}

// Labels from shapes are bounded by shapes/*.ttl; the cap only guards against a future free-text label.
const MAX_RULES = 500;

/** One node's Prometheus metrics (a registry of its own, so test nodes do not share counters). */
export class NodeMetrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly inbox = new Counter({
    name: 'dataspace_inbox_activities_total',
    help: 'Inbox POSTs by activity type (Create, Update, Add, other) and HTTP status',
    labelNames: ['type', 'status'] as const,
    registers: [this.registry],
  });
  private readonly validation = new Counter({
    name: 'dataspace_validation_failures_total',
    help: 'Shape violations in refused inbox payloads, by rule (source shape)',
    labelNames: ['rule'] as const,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'dataspace_deliveries_total',
    help: 'Signal delivery attempts by outcome (delivered, failed = given up, retry = will retry)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly sparqlQueries = new Counter({
    name: 'dataspace_sparql_queries_total',
    help: 'SPARQL endpoint queries by HTTP status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  private readonly sparqlTimeouts = new Counter({
    name: 'dataspace_sparql_timeouts_total',
    help: 'SPARQL endpoint queries stopped at the time limit',
    registers: [this.registry],
  });
  private readonly snapshotDuration = new Histogram({
    name: 'dataspace_snapshot_duration_seconds',
    help: 'Snapshots of the embedded store: time to write each',
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly compactions = new Counter({
    name: 'dataspace_store_compactions_total',
    help: "Compactions of the embedded store's memory (docs/memory-compaction.md)",
    registers: [this.registry],
  });
  private readonly loopDelayHistogram = new Histogram({
    name: 'dataspace_event_loop_delay_seconds',
    help: "The event loop's longest delay in each second (perf_hooks monitorEventLoopDelay, 10 ms resolution): how long the node answered nothing",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly loopDelay = new LoopDelay((seconds) => this.loopDelayHistogram.observe(seconds));
  private sources: MetricSources | undefined;
  private snapshotsSeen = 0;
  private compactionsSeen = 0;
  private readonly rules = new Set<string>();

  constructor() {
    // prom-client calls collect() with the metric as `this`; the node's metrics are reached through this name.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const metrics = this;
    new Gauge({
      name: 'dataspace_event_loop_delay_max_seconds',
      help: `The event loop's longest delay in the last ${RECENT_SECONDS} s`,
      registers: [this.registry],
      collect() {
        this.set(metrics.loopDelay.recentMaxSeconds);
      },
    });
    new Gauge({
      name: 'dataspace_outbox_backlog',
      help: 'Signal deliveries waiting to be made',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.backlog().count ?? 0);
      },
    });
    new Gauge({
      name: 'dataspace_outbox_oldest_age_seconds',
      help: 'Age of the oldest delivery still waiting (0 when none)',
      registers: [this.registry],
      collect() {
        const oldest = metrics.sources?.backlog().oldestQueuedAt;
        this.set(oldest === undefined ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
      },
    });
    new Gauge({
      name: 'dataspace_store_quads',
      help: 'Quads held by the store',
      registers: [this.registry],
      async collect() {
        if (metrics.sources) this.set(await metrics.sources.store.size());
      },
    });
    new Gauge({
      name: 'dataspace_store_removed_quads',
      help: 'Quads removed from the embedded store since its memory was last compact: their memory is held until a compaction (docs/memory-compaction.md)',
      registers: [this.registry],
      collect() {
        const removed = metrics.sources?.embedded?.store.deadQuads;
        if (removed !== undefined) this.set(removed);
      },
    });
    new Gauge({
      name: 'dataspace_store_quota_used_quads',
      help: "Quads DATASPACE_MAX_QUADS is counted against: the embedded store's main instance (its activity log has an instance of its own); all quads on a SPARQL server",
      registers: [this.registry],
      async collect() {
        if (metrics.sources) this.set(metrics.sources.embedded?.store.ownApproximateSize ?? (await metrics.sources.store.size()));
      },
    });
    new Gauge({
      name: 'dataspace_store_memory_bytes',
      help: 'WebAssembly memory of each Oxigraph instance of the embedded store (main; activity-log, which has an instance of its own): each can reach 4 GiB, and the capacity guard refuses writes near it',
      labelNames: ['instance'],
      registers: [this.registry],
      collect() {
        for (const { instance, bytes } of metrics.sources?.embedded?.store.memorySizes ?? []) this.set({ instance }, bytes);
      },
    });
    new Gauge({
      name: 'dataspace_store_quota_quads',
      help: 'DATASPACE_MAX_QUADS: new activities are refused with 507 past it (0 = no quota)',
      registers: [this.registry],
      collect() {
        this.set(metrics.sources?.maxQuads ?? 0);
      },
    });
    new Gauge({
      name: 'dataspace_recovery_duration_seconds',
      help: 'Time the embedded store took to load its snapshot and replay its log at start',
      registers: [this.registry],
      collect() {
        const ms = metrics.sources?.embedded?.recoveryMs;
        if (ms !== undefined) this.set(ms / 1000);
      },
    });
  }

  /** Connects the values read at scrape time, once the node's collaborators exist. */
  track(sources: MetricSources): void {
    this.sources = sources;
  }

  inboxAnswered(type: unknown, status: number): void {
    const known = type === 'Create' || type === 'Update' || type === 'Add' ? type : 'other';
    this.inbox.inc({ type: known, status: String(status) });
  }

  validationFailed(results: readonly { sourceShape?: unknown; severity?: unknown }[]): void {
    for (const result of results) {
      if (result.severity !== undefined && result.severity !== 'Violation') continue;
      let rule = typeof result.sourceShape === 'string' ? result.sourceShape.slice(0, 120) : '(unknown)';
      if (!this.rules.has(rule) && this.rules.size >= MAX_RULES) rule = '(other)';
      this.rules.add(rule);
      this.validation.inc({ rule });
    }
  }

  deliveryRecorded(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  sparqlAnswered(status: number, timedOut: boolean): void {
    this.sparqlQueries.inc({ status: String(status) });
    if (timedOut) this.sparqlTimeouts.inc();
  }

  /** The Prometheus text exposition: process metrics, then this node's. */
  async text(): Promise<string> {
    const snapshots = this.sources?.embedded?.snapshots ?? [];
    for (const snapshot of snapshots.slice(this.snapshotsSeen)) this.snapshotDuration.observe(snapshot.ms / 1000);
    this.snapshotsSeen = snapshots.length;
    const compactions = this.sources?.embedded?.compactions.length ?? 0;
    this.compactions.inc(compactions - this.compactionsSeen);
    this.compactionsSeen = compactions;
    return `${await processMetrics().metrics()}\n${await this.registry.metrics()}`;
  }

  /** Stops sampling the event loop (the node closes). */
  close(): void {
    this.loopDelay.close();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
