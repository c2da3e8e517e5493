/**
 * The filtered list's own work at scale, without HTTP or seeding: `node dist/bench/filtered-index.js
 * [consignments]` (100,000 by default, ~10 s) fills the one consignment index with synthetic records
 * (two owners, three routes, statuses and update times spread as below), then walks each filter from
 * its first page through PublicationOrder as GET …/consignments does (limit 50, up to 200 pages, one
 * page at a time), timing every page and the longest gap between turns of the event loop meanwhile
 * (a setImmediate ticker: what any other request would have waited). Prints the table.
 * What HTTP, authentication and JSON add is in filtered-list.ts's rows (npm run bench:lists).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Principal } from '../src/core/auth/principal.js';
import { ConsignmentIndex } from '../src/core/ports/memory-consignment-catalog.js';
import type { StoredRecord } from '../src/core/catalog/records.js';
import type { CoveragePolicies } from '../src/core/policy/coverage-policies.js';
import { CoverageRule } from '../src/core/policy/coverage.js';
import type { ListFilter } from '../src/core/policy/list-filter.js';
import { PublicationOrder, type ListKey } from '../src/core/policy/publication-order.js';
import { QueryBank } from '../src/core/queries/query-bank.js';
import { OxigraphStore } from '../src/adapters/oxigraph/oxigraph-store.js';
import { percentile } from './load.js';
import { renderTable, type Row } from './table.js';

const OWNER = 'did:web:forwarder.bench.example';
const OTHER = 'did:web:other.bench.example';
const ROUTES = [
  ['GBFXT', 'NLRTM'],
  ['GBSOU', 'FRLEH'],
  ['GBDVR', 'FRCQF'],
];
const MAX_PAGES = 200;
const T0 = Date.parse('2026-11-01T00:00:00Z');

const border: Principal = {
  email: 'officer@border.bench.example',
  org: {
    id: 'did:web:border.bench.example',
    name: 'Border',
    role: 'borderAgency',
    country: 'GB',
    locations: [],
  } as unknown as Principal['org'],
};

/** Consignment n: owner 9 in 10 the forwarder; status preNotified 1 in 10, despatched 1 in 20; updated a second after the one before, every 7th touched again at the end. */
function record(n: number, scale: number): StoredRecord {
  const updated = n % 7 === 0 ? T0 + (scale + n) * 1000 : T0 + n * 1000;
  return {
    seq: n + 1,
    consignment: `urn:dataspace:consignment:${n}`,
    owner: n % 10 === 9 ? OTHER : OWNER,
    globalId: `urn:uuid:${n}`,
    identifier: `REF-${n}`,
    stateGraph: `urn:dataspace:graph:${n}`,
    created: new Date(T0 + n * 1000).toISOString(),
    updated: new Date(updated).toISOString(),
    status: n % 10 === 0 ? 'preNotified' : n % 20 === 5 ? 'despatched' : 'published',
    routes: ROUTES[n % ROUTES.length],
  };
}

/** `loopMs`: the longest wall-clock gap between turns; `loopCpuMs`: the most CPU the process spent in one (a busy machine's preemption is in the first, not the second). */
interface Walk {
  pages: number;
  items: number;
  p50: number;
  p99: number;
  max: number;
  loopMs: number;
  loopCpuMs: number;
}

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function walk(order: PublicationOrder, filter: ListFilter | undefined): Promise<Walk> {
  const latencies: number[] = [];
  let items = 0;
  let loopMs = 0;
  let loopCpuMs = 0;
  let ticking = true;
  let last = performance.now();
  let lastCpu = cpuNow();
  const tick = () => {
    const now = performance.now();
    const cpu = cpuNow();
    loopMs = Math.max(loopMs, now - last);
    loopCpuMs = Math.max(loopCpuMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  let after: ListKey | undefined;
  do {
    const t = performance.now();
    if (filter) {
      const page = await order.filteredConsignmentPage(border, filter, after, { items: 50, examine: 20_000, slice: 1000 });
      items += page.items.length;
      after = page.next;
    } else {
      const page = await order.consignmentPage(border, after?.seq ?? 0, 51);
      items += Math.min(50, page.length);
      after = page.length > 50 ? { seq: page[49]!.seq } : undefined;
    }
    latencies.push(performance.now() - t);
    // A turn between pages, as between two requests.
    await new Promise((r) => setImmediate(r));
  } while (after && latencies.length < MAX_PAGES);
  ticking = false;
  const sorted = Float64Array.from(latencies).sort();
  return {
    pages: latencies.length,
    items,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1)!,
    loopMs,
    loopCpuMs,
  };
}

async function main(): Promise<void> {
  const scale = Number(process.argv[2] ?? 100_000);
  const index = new ConsignmentIndex(new OxigraphStore(), new QueryBank());
  await index.complete();
  const filled = performance.now();
  for (let n = 0; n < scale; n++) {
    const entry = index.put(record(n, scale), false);
    index.route(entry, new Set(ROUTES[n % ROUTES.length]), false);
  }
  index.sortLists();
  const fillMs = performance.now() - filled;
  const rule = new CoverageRule([{ owner: OWNER, role: 'borderAgency', countries: ['GB'], locations: [], consignments: [] }]);
  const order = new PublicationOrder(index, { rule: async () => rule } as unknown as CoveragePolicies);
  const since = (fraction: number) => T0 + Math.floor(scale * fraction) * 1000;
  const filters: [string, ListFilter | undefined][] = [
    ['none (the unfiltered list, for comparison)', undefined],
    ['status=preNotified (1 in 10 of what the reader may read)', { scope: 'all', status: 'preNotified' }],
    ['location=NLRTM (1 in 3)', { scope: 'all', location: 'NLRTM' }],
    ['updatedSince, the latest changes (1 in 70; update order)', { scope: 'all', updatedSince: since(1.9) }],
    [
      'updatedSince the last half + status=despatched + location=FRCQF + scope=shared (sparse)',
      { scope: 'shared', updatedSince: since(0.5), status: 'despatched', location: 'FRCQF' },
    ],
    ['status=despatched + location=NLRTM (1 in 60: the status list is walked)', { scope: 'all', status: 'despatched', location: 'NLRTM' }],
    ['status=delivered (none in that status: an empty list)', { scope: 'all', status: 'delivered' }],
    [
      'updatedSince=2000-01-01 + status=delivered (none: every page stops at 20,000 looked at)',
      { scope: 'all', updatedSince: 0, status: 'delivered' },
    ],
  ];
  const rows: Row[] = [];
  const stored = scale.toLocaleString('en-GB');
  await walk(order, filters[1]![1]);
  for (const [name, filter] of filters) {
    const w = await walk(order, filter);
    rows.push({
      measure: `Index walk, filter ${name}: limit 50 from the first page, in-process (${w.pages} pages${w.pages === MAX_PAGES ? ' (cut)' : ''}, ${w.items.toLocaleString('en-GB')} items)`,
      stored,
      concurrency: '1',
      value: `slowest page ${w.max.toFixed(1)} ms; longest event-loop gap ${w.loopMs.toFixed(1)} ms (CPU in it ${w.loopCpuMs.toFixed(1)} ms)`,
      p50: w.p50,
      p99: w.p99,
    });
  }
  process.stdout.write(`index filled with ${stored} records in ${(fillMs / 1000).toFixed(1)} s\n${renderTable(rows)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
