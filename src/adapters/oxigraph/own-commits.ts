import type { Change, Committed } from '../../core/ports/quad-store.js';
import type { GraphStaging } from '../../core/ports/graph-staging.js';
import { applyOwn, parsedInserts, type OwnMemory } from './apply-own.js';
import type { ChangeRecorder } from './change-recorder.js';
import { CommitQueue } from './commit-queue.js';
import { splitChange } from './graph-apart.js';
import type { WriteAheadLog } from './log/write-ahead-log.js';
import type { ChangeObserver } from './oxigraph-terms.js';
import { Stagings, type InMemory, type StagingHost } from './pre-staging.js';
import { hasLargeInsert, stageInserts, type StageTarget } from './staged-inserts.js';

/** What the embedded store's commits need of it (oxigraph-store.ts): each read afresh at every commit. */
export interface CommitHost {
  readonly own: StageTarget & OwnMemory & StagingHost;
  readonly observer: ChangeObserver | undefined;
  /** The activity log's store apart, when there is one. */
  readonly apart: { apply(change: Change): void } | undefined;
  readonly recorder: ChangeRecorder;
  readonly log: WriteAheadLog | undefined;
}

/**
 * The embedded store's commit path: a change applied to memory and appended to the log in one tick,
 * a large insert loaded ahead in slices (staged-inserts.ts) with later commits queued behind it, and a
 * graph staged ahead of its commit (pre-staging.ts) published by taking its mark out.
 */
export class OwnCommits {
  private readonly queue = new CommitQueue();
  private readonly stagings: Stagings;

  constructor(private readonly host: CommitHost) {
    this.stagings = new Stagings(host.own);
  }

  /** Whether a commit is under way that loads in slices, or waits behind one that does. */
  get busy(): boolean {
    return this.queue.busy;
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  stage(graph: string, nquads: string): GraphStaging | undefined {
    return this.stagings.stage(graph, nquads, this.host.own.holds);
  }

  commit(change: Change): Promise<Committed> {
    // A large insert loads ahead in slices, so one write never holds the event loop for long; a commit
    // called meanwhile waits its turn. Anything else applies in this tick.
    const { rest, apart } = this.host.apart ? splitChange(change) : { rest: change, apart: undefined };
    const own = this.stagings.inMemory(rest.ops);
    if (!this.queue.busy && !hasLargeInsert(own.ops)) return this.commitParts(change, rest, own, apart, false);
    return this.queue.run(() => this.commitParts(change, rest, own, apart, true));
  }

  /** `own`: what memory applies of `rest`; the log, the recorder and the feed have the change as written. */
  private async commitParts(change: Change, rest: Change, own: InMemory, apart: Change | undefined, slices: boolean): Promise<Committed> {
    const { host } = this;
    const staged = slices ? await stageInserts(host.own, own.ops) : undefined;
    try {
      // The rest first: it is checked whole before any of it is applied, so a bad op applies nothing. The
      // activity log's part is the node's own N-Quads (NQuadsBuilder), in the same tick. Nothing may come
      // between applying and appending: the log's order must be the order of memory.
      applyOwn(host.own, { ops: staged ? staged.ops : own.ops });
    } catch (error) {
      staged?.undo();
      throw error;
    }
    own.publish();
    host.recorder.record(rest);
    if (apart && apart.ops.length > 0) {
      host.observer?.({ ops: apart.ops, inserted: parsedInserts(apart.ops) });
      host.apart!.apply(apart);
    }
    return { durable: host.log ? host.log.append(change) : Promise.resolve() };
  }
}
