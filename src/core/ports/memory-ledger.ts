import { seqRanges } from '../catalog/record-pages.js';
import type { QueryBank } from '../queries/query-bank.js';
import { int } from '../queries/query-bank.js';
import type { QuadStore } from './quad-store.js';
import { walkPage, type WalkLimits, type WalkPage } from '../util/filtered-walk.js';
import { pagesInOrder } from '../util/pages-in-order.js';
import type { LedgerEntry, LedgerFilter, ReceiverLedger } from './receiver-ledger.js';

/**
 * A single node's receivers' ledger (receiver-ledger.ts), in memory. A page looks at a bounded number of
 * entries between turns of the event loop and then reads the state of only the deliveries it shows; asking
 * the store for a receiver's deliveries newest first made it join and sort the receiver's whole history on
 * every page, a cost that grew with the square of the deliveries (the figure:
 * bench/results/2026-12-07-comment-figures.md). The whole outbox is read at every start.
 */
export class MemoryLedger implements ReceiverLedger {
  private readonly lists = new Map<string, LedgerEntry[]>();
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
  ) {}

  /** A read that failed (the store away at start) is told to its waiters and tried again by the next page, not kept. */
  startLoading(): Promise<void> {
    if (!this.loaded) {
      const loading = this.load();
      this.loaded = loading;
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = undefined;
      });
    }
    return this.loaded;
  }

  add(receiver: string, entry: LedgerEntry): void {
    let list = this.lists.get(receiver);
    if (!list) this.lists.set(receiver, (list = []));
    const at = firstAtOrAbove(list, entry.seq);
    if (list[at]?.seq === entry.seq) return;
    // Commits come in sequence order, so this is an append but for deliveries read at start meanwhile.
    if (at === list.length) list.push(entry);
    else list.splice(at, 0, entry);
  }

  async page(receiver: string, filter: LedgerFilter, before: number, limits: WalkLimits): Promise<WalkPage<LedgerEntry, number>> {
    await this.startLoading();
    const list = this.lists.get(receiver) ?? [];
    const since = filter.since ?? -Infinity;
    const until = filter.until ?? Infinity;
    return walkPage(
      (after) => newestBelow(list, after),
      (entry) => entry.seq,
      before,
      (entry) => (filter.type === undefined || entry.type === filter.type) && entry.published >= since && entry.published < until,
      limits,
    );
  }

  private async load(): Promise<void> {
    const { starts, size } = await seqRanges(this.store.rowCap, async () => {
      const [row] = await this.store.select(this.queries.text('notify/delivery-seq-max'));
      return Number(row?.get('max')?.value ?? 0);
    });
    const page = (after: number) =>
      this.store.select(this.queries.bind('notify/ledger-page', { after: int(after), upto: int(after + size) }));
    const read = new Map<string, LedgerEntry[]>();
    await pagesInOrder(starts, page, 2, (rows) => {
      for (const row of rows) {
        const value = (name: string) => row.get(name)?.value ?? '';
        const receiver = value('receiver');
        let list = read.get(receiver);
        if (!list) read.set(receiver, (list = []));
        list.push({
          seq: Number(value('seq')),
          delivery: value('delivery'),
          type: value('type'),
          published: Date.parse(value('published')),
        });
      }
    });
    // Sorted once (pages come unordered); what commits added while the pages were read joins them once.
    for (const [receiver, list] of read) {
      const merged = [...list, ...(this.lists.get(receiver) ?? [])].sort((a, b) => a.seq - b.seq);
      this.lists.set(
        receiver,
        merged.filter((entry, i) => i === 0 || merged[i - 1]!.seq !== entry.seq),
      );
    }
  }
}

/** The index of the first entry whose seq is at least `seq` (the list's length when none is). */
function firstAtOrAbove(list: readonly LedgerEntry[], seq: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (list[mid]!.seq < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

function* newestBelow(list: readonly LedgerEntry[], before: number): Generator<LedgerEntry> {
  for (let i = firstAtOrAbove(list, before) - 1; i >= 0; i--) yield list[i]!;
}
