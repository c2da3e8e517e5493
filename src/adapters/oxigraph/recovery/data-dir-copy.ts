import type oxigraph from 'oxigraph';
import type { Logger } from '../../../core/logger.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { OxigraphStore } from '../oxigraph-store.js';
import { newOxigraphInstance, type OxigraphInstance } from '../wasm/oxigraph-instance.js';
import { engineImageGenerations, restoreNewestEngineImage, writeEngineImage, type EngineImageWritten } from './engine-image.js';
import { replayDataDir } from './data-dir-replay.js';
import { readUnits } from './recovery.js';
import { snapshotGenerations } from './snapshot-files.js';

export type { EngineImageWritten };

/** One read-only store of a copy: queried, and fed the changes its owner routes to it. */
export interface CopiedStore {
  /** The Oxigraph store to query (a recovery replaces it: ask the copy afresh). */
  readonly store: oxigraph.Store;
  /** Applies changes in commit order, runs of inserts in one load. */
  replay(changes: Iterable<Change>): void;
  /** Loads trusted N-Quads (a snapshot's chunk) without a transaction. */
  loadTrusted(nquads: string | Uint8Array): void;
  readonly deadQuads: number;
  readonly approximateSize: number;
}

/** How a copy was last recovered: from its image, or from the N-Quads snapshot (and why not the image). */
export interface RecoveredFrom {
  from: 'image' | 'snapshot';
  /** Why no image was used (absent when images were not asked for). */
  reason?: string;
  /** The image's generation, and the removed quads it carried. */
  generation?: number;
  imageDead: number;
}

/** What the copy's owner does with the data dir as the copy reads it. */
export interface CopyFeed {
  /** The stores are new: empty, or restored from an image (`restored`); drop whatever was kept of the old. */
  started(restored: boolean): void;
  /** A chunk of the newest snapshot, for the owner to route to its stores; answers the quads it held. */
  snapshot(bytes: Buffer): number;
  /** Changes committed after what the stores hold, in order. */
  changes(changes: Change[]): void;
}

/**
 * A read-only copy of part of the node's data, in stores of its own named by `names`, all in one
 * WebAssembly instance when the glue allows (so it can be imaged): the store's one door for a copy
 * (the SPARQL engine threads'), made from the data dir by the store's own replay, with every check of
 * the node's recovery, and then kept up by its owner from the change feed. The owner decides which
 * quads go to which store; the copy knows the data dir, the images and the memory.
 */
export class DataDirCopy<N extends string> {
  private instance: OxigraphInstance | undefined;
  private held: Record<N, OxigraphStore>;
  recovered: RecoveredFrom = { from: 'snapshot', imageDead: 0 };

  constructor(private readonly names: readonly N[]) {
    ({ instance: this.instance, stores: this.held } = freshStores(names));
  }

  get stores(): Readonly<Record<N, CopiedStore>> {
    return this.held;
  }

  /** Empty stores in a fresh instance, and nothing of what the old ones held. */
  reset(): void {
    ({ instance: this.instance, stores: this.held } = freshStores(this.names));
  }

  /**
   * Reads the data dir: the newest image of the copy and the logs after it when `images` and one is sound,
   * else the newest snapshot and the logs after it (read only, retried from scratch if a newer snapshot
   * retires a log while it is read). Answers the quads held: counted after a snapshot, the image's
   * count plus what the logs add after an image (an estimate until the next resync).
   */
  recover(dataDir: string, feed: CopyFeed, logger: Logger, options: { images?: boolean } = {}): number {
    if (options.images) {
      try {
        return this.recoverFromImage(dataDir, feed, logger);
      } catch (error) {
        // Any doubt about the image (none, another build, torn, its log gone, a log damaged after it):
        // the snapshot and the logs, with every check of the node's own recovery.
        this.recovered = { from: 'snapshot', reason: (error as Error).message, imageDead: 0 };
        this.startOver(feed);
      }
    } else this.recovered = { from: 'snapshot', imageDead: 0 };
    for (let attempt = 1; ; attempt++) {
      try {
        const sink = {
          snapshot: (path: string): number => {
            let quads = 0;
            readUnits(path, (bytes) => {
              quads += feed.snapshot(bytes);
            });
            return quads;
          },
          changes: (changes: Change[]): void => feed.changes(changes),
        };
        replayDataDir(dataDir, snapshotGenerations(dataDir).at(-1), sink, { readOnly: true, logger });
        break;
      } catch (error) {
        if (attempt >= 5) throw error;
        this.startOver(feed);
      }
    }
    return this.stored().reduce((n, store) => n + store.resync(), 0);
  }

  private startOver(feed: CopyFeed): void {
    this.reset();
    feed.started(false);
  }

  private recoverFromImage(dataDir: string, feed: CopyFeed, logger: Logger): number {
    const image = restoreNewestEngineImage(dataDir, this.names);
    const { instance, stores } = image;
    this.instance = instance;
    this.held = Object.fromEntries(
      this.names.map((name) => {
        const { store, quads, dead } = stores[name]!;
        return [name, new OxigraphStore(undefined, { instance, store, quads, dead })];
      }),
    ) as Record<N, OxigraphStore>;
    feed.started(true);
    const sink = { snapshot: (): number => 0, changes: (changes: Change[]): void => feed.changes(changes) };
    replayDataDir(dataDir, image.generation, sink, { readOnly: true, logger, loaded: true });
    this.recovered = { from: 'image', generation: image.generation, imageDead: this.names.reduce((n, name) => n + stores[name]!.dead, 0) };
    return this.stored().reduce((n, store) => n + store.approximateSize, 0);
  }

  /**
   * Saves the copy's memory as its image of `generation` in `dataDir` (engine-image.ts). Must be
   * called when the stores hold exactly the changes before that generation's log.
   */
  saveImage(dataDir: string, generation: number, durable: boolean): Promise<EngineImageWritten> {
    if (!this.instance)
      return Promise.reject(new Error("the engine copy lives in the package's own Oxigraph instance, which cannot be imaged"));
    // Never one older than what is there: a thread lagging behind must not replace a newer image.
    if ((engineImageGenerations(dataDir).at(-1) ?? -1) >= generation)
      return Promise.reject(new Error(`an engine image of generation ${generation} or newer is there already`));
    return writeEngineImage(dataDir, generation, this.instance, this.held, durable);
  }

  private stored(): OxigraphStore[] {
    return this.names.map((name) => this.held[name]);
  }
}

/** Stores named `names`, in one Oxigraph instance of their own when the glue allows. */
function freshStores<N extends string>(names: readonly N[]): { instance: OxigraphInstance | undefined; stores: Record<N, OxigraphStore> } {
  const instance = newOxigraphInstance();
  const store = (): OxigraphStore =>
    instance ? new OxigraphStore(undefined, { instance, store: new instance.ox.Store(), quads: 0 }) : new OxigraphStore();
  return { instance, stores: Object.fromEntries(names.map((name) => [name, store()])) as Record<N, OxigraphStore> };
}
