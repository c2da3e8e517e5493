import type { Logger } from '../logger.js';
import { DelegatingStore } from './delegating-store.js';
import type { ChangeNote } from '../catalog/change-notes.js';
import type { Change, Committed, QuadStore } from '../ports/quad-store.js';

/**
 * One commit, as its followers hear of it: the change as data (the ops the store applied and logged)
 * and what its writer knew about it (`notes`: an accepted activity, system events written, a policy
 * change; core/catalog/change-notes.ts).
 */
export interface CommittedChange {
  /** 1, 2, 3, …: the order the commits were made in, which is the order they are published in. */
  seq: number;
  change: Change;
  notes: readonly ChangeNote[];
}

/** A commit of the node as the change feed's followers hear of it. */
export type NodeChange = CommittedChange;

/** Reacts to one committed change. Synchronous: the writer is answered only after every follower ran. */
export type Follower = (committed: CommittedChange) => void;

/**
 * The one "committed and durable" event of the node (after Community Solid Server's MonitoringStore):
 * everything that must follow a commit (the SPARQL engine's copies, read caches, publication order,
 * signal delivery, snapshots) is a follower of it, and nothing else is told of commits.
 *
 * Guarantees, in this order of importance:
 * - Every change committed through `store()` is published once, after it is durable, in commit order,
 *   to the followers in the order they were added. A change whose log write fails is not published:
 *   followers then hold what a restart would hold, and the writer gets the error.
 * - The `durable` promise the writer awaits resolves only once every follower has run, so whatever a
 *   follower keeps (the engine threads' copies, caches) has the change before the writer answers.
 * - A follower that throws is logged and skipped for that change: the change stays committed, the
 *   followers after it still run, the writer is still answered (the change is durable; failing the
 *   request would only make the client send it again). A follower whose state may then be stale must
 *   make itself safe first: the read-cache follower moves its versions before anything that can throw.
 */
export class ChangeFeed {
  private readonly followers: { name: string; follow: Follower }[] = [];
  /** Settles when the last change handed in has been published (or skipped): the next one waits for it. */
  private tail: Promise<void> = Promise.resolve();
  private published = 0;
  /** Follower failures since start, by follower name (for tests and metrics). */
  readonly failures = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  /** Adds a follower after those already there; `name` is what a failure is logged under. */
  follow(name: string, follow: Follower): void {
    this.followers.push({ name, follow });
  }

  /** `inner` with every commit published on this feed; the node commits through nothing else. */
  store(inner: QuadStore): QuadStore {
    return new FeedStore(inner, this);
  }

  /**
   * Publishes `change` once `durable` resolves and every change handed in before it is published.
   * Called in the order the store applies the changes, so publication order is commit order.
   */
  publishWhenDurable(change: Change, notes: readonly ChangeNote[], durable: Promise<void>): Promise<void> {
    const published = this.tail.then(() => durable).then(() => this.publish(change, notes));
    // The next change waits for this one whether or not it was published.
    this.tail = published.catch(() => undefined);
    return published;
  }

  /**
   * Runs `mark` once every change handed in so far has been published (or skipped), and before any
   * change handed in later: a point in the publication order, such as a log rotation (the SPARQL
   * engine saves its image there). A mark that throws is logged; publication goes on.
   */
  afterPublished(name: string, mark: () => void): void {
    this.tail = this.tail.then(mark).catch((error: unknown) => {
      this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
      this.logger.error('a change-feed mark failed', { mark: name, error: (error as Error).message });
    });
  }

  private publish(change: Change, notes: readonly ChangeNote[]): void {
    const committed: CommittedChange = { seq: ++this.published, change, notes };
    for (const { name, follow } of this.followers) {
      try {
        follow(committed);
      } catch (error) {
        this.failures.set(name, (this.failures.get(name) ?? 0) + 1);
        this.logger.error('a change-feed follower failed; the change stays committed and the other followers ran', {
          follower: name,
          seq: committed.seq,
          error: (error as Error).message,
        });
      }
    }
  }
}

/**
 * Hands each change to the store with its notes taken off (the store neither keeps nor logs them), and
 * to the feed in the same turn, so the feed sees changes in the order the store applies them.
 */
class FeedStore extends DelegatingStore {
  constructor(
    inner: QuadStore,
    private readonly feed: ChangeFeed,
  ) {
    super(inner);
  }

  override async commit(change: Change): Promise<Committed> {
    const plain: Change = { ops: change.ops };
    const notes = change.notes ?? [];
    const applied = this.inner.commit(plain);
    const durable = this.feed.publishWhenDurable(
      plain,
      notes,
      applied.then((committed) => committed.durable),
    );
    // A change the store refused was not applied: the writer gets that error, and the feed skips it.
    await applied;
    return { durable };
  }
}
