import type { QueryBank } from '../queries/query-bank.js';
import { int } from '../queries/query-bank.js';
import { seqRanges } from '../catalog/record-pages.js';
import { GRAPHS, svc } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import type { ChangeOp, QuadStore } from '../ports/quad-store.js';
import { nextTurn } from '../util/next-turn.js';
import { pagesInOrder } from '../util/pages-in-order.js';
import { iriToString } from '../rdf/terms.js';
import { compare, entryIri, parseEntry, type ChangeEntry, type PolicyEntry } from './change-entry.js';
import { commitDurably } from '../store/commit-durably.js';

const POLICIES_IN_FORCE = 'urn:dataspace:change:policies';

// Entries parsed between two turns of the event loop at start.
const PARSE_SLICE = 2000;

/**
 * Where a page's range of sequence numbers starts, exclusive: a policy change published before any
 * data change is at number 0 (change-entry.ts), so the first range takes 0 in.
 */
const from = (start: number): number => (start === 0 ? -1 : start);

/**
 * The change journal as stored: one resource an entry in the changes graph, its place (svc:changeSeq,
 * for paged reads) and the entry as one JSON literal (two quads an entry). The one writer and reader
 * of that graph.
 */
export class ChangeJournal {
  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
  ) {}

  /** Ops that append `entry`; they join the commit of the change they record where there is one. */
  appendOps(entry: ChangeEntry): ChangeOp[] {
    const subject = entryIri(entry.at);
    const nquads = new NQuadsBuilder(GRAPHS.changes)
      .literal(subject, svc('seq'), entry.at.seq)
      .literal(subject, svc('changeEntry'), JSON.stringify(entry))
      .toString();
    return [{ op: 'insert', nquads }];
  }

  /**
   * Commits a policy change's entry on its own (the policies module made the change's commit), with
   * the ids of the policies in force after it as the journal's last word on them (policiesJournaled):
   * a triple a policy, changed by the policies the entry changed.
   */
  async appendPolicies(entry: PolicyEntry): Promise<void> {
    const inForce = (id: string) => ({
      subject: iriToString(POLICIES_IN_FORCE),
      predicate: iriToString(svc('policyInForce')),
      object: iriToString(id),
      graph: GRAPHS.changes,
    });
    const ops: ChangeOp[] = [...this.appendOps(entry)];
    if (entry.policies) ops.push({ op: 'deleteMatching', ...inForce(''), object: null });
    for (const id of entry.withdrawn ?? []) ops.push({ op: 'deleteMatching', ...inForce(id) });
    const added = new NQuadsBuilder(GRAPHS.changes);
    for (const { id } of [...(entry.policies ?? []), ...(entry.registered ?? [])]) added.iri(POLICIES_IN_FORCE, svc('policyInForce'), id);
    if (added.toString() !== '') ops.push({ op: 'insert', nquads: added.toString() });
    await commitDurably(this.store, { ops });
  }

  /** The ids of the policies in force as the journal last recorded them (none before the first policy entry). */
  async policiesJournaled(): Promise<Set<string>> {
    const rows = await this.store.select(this.queries.text('changes/policies-journaled'));
    return new Set(rows.map((row) => row.get('policy')!.value));
  }

  /**
   * Every entry, in journal order: read in ranges of sequence numbers on a server with a row cap,
   * in one query on the embedded store, and parsed in slices that yield to the event loop.
   */
  async readAll(): Promise<ChangeEntry[]> {
    const { starts, size } = await seqRanges(this.store.rowCap, async () => {
      const [row] = await this.store.select(this.queries.text('changes/journal-max'));
      return Number(row?.get('max')?.value ?? 0);
    });
    const texts: string[] = [];
    const page = (after: number) =>
      this.store.select(this.queries.bind('changes/journal-page', { after: int(from(after)), upto: int(after + size) }));
    // A journal of policy changes at number 0 alone has no range under a row cap: one is read all the same.
    await pagesInOrder(starts.length === 0 ? [0] : starts, page, 2, (rows) => {
      for (const row of rows) texts.push(row.get('entry')!.value);
    });
    const entries: ChangeEntry[] = [];
    for (let i = 0; i < texts.length; i++) {
      entries.push(parseEntry(texts[i]!));
      if (i % PARSE_SLICE === PARSE_SLICE - 1) await nextTurn();
    }
    return entries.sort((a, b) => compare(a.at, b.at));
  }

  /**
   * The entries with a sequence number above `after`, a page at a time in journal order, each page
   * handed to `take` before the next is parsed: what a layer that holds most of the journal reads to
   * catch up, in pages of the store's row cap (else `pageSeqs`). Answers the highest number the journal
   * held when the read began: what the reader then has it up to.
   */
  async readAfter(after: number, pageSeqs: number, take: (entries: ChangeEntry[]) => void | Promise<void>): Promise<number> {
    const [row] = await this.store.select(this.queries.text('changes/journal-max'));
    const max = Number(row?.get('max')?.value ?? 0);
    const size = this.store.rowCap ?? pageSeqs;
    // One page at least: the entries at number 0 are above no range's start but the first's.
    const starts = Array.from({ length: Math.max(1, Math.ceil((max - after) / size)) }, (_, i) => after + i * size);
    const page = (start: number) =>
      this.store.select(this.queries.bind('changes/journal-page', { after: int(from(start)), upto: int(start + size) }));
    await pagesInOrder(starts, page, 2, (rows) =>
      take(rows.map((r) => parseEntry(r.get('entry')!.value)).sort((a, b) => compare(a.at, b.at))),
    );
    return max;
  }
}
