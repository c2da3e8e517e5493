import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemEventNote, type ChangeNote } from '../../../../src/core/catalog/change-notes.js';
import type { Logger } from '../../../../src/core/logger.js';
import { ChangeFeed, type CommittedChange } from '../../../../src/core/store/change-feed.js';
import { DelegatingStore } from '../../../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../../../src/adapters/oxigraph/oxigraph-store.js';
import type { Change, Committed, QuadStore } from '../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore } from '../../../../src/adapters/oxigraph/recovery/recovery.js';
import { logFileName, logGenerations, readLog } from '../../../../src/adapters/oxigraph/log/write-ahead-log.js';
import { nth } from '../../../helpers/present.js';

// The feed carries the node's notes; a system-event note stands for any, numbered by its consignment.
const note = (n: number): ChangeNote => systemEventNote(`urn:n:${n}`);
const numberOf = (noted: ChangeNote): number => (noted.kind === 'system-event' ? Number(noted.consignment.slice('urn:n:'.length)) : NaN);

/** A logger that keeps its error lines, to see what the feed says of a failing follower. */
function recordingLogger() {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = { info: () => {}, warn: () => {}, error: (message, fields) => errors.push({ message, fields }) };
  return { logger, errors };
}

/** The error `promise` rejects with, or undefined when it resolves. */
const rejection = (promise: Promise<unknown>): Promise<Error | undefined> =>
  promise.then(
    () => undefined,
    (error: Error) => error,
  );

const insert = (n: number): Change => ({ ops: [{ op: 'insert', nquads: `<urn:s:${n}> <urn:p:n> "${n}" <urn:uuid:g${n}> .\n` }] });
const noted = (n: number): Change => ({ ...insert(n), notes: [note(n)] });

/** A store whose commits become durable only when the test says so (as a slow fsync would). */
class HeldStore extends DelegatingStore {
  readonly held: { resolve: () => void; reject: (error: Error) => void }[] = [];

  override async commit(change: Change): Promise<Committed> {
    await this.inner.commit(change);
    return { durable: new Promise<void>((resolve, reject) => this.held.push({ resolve, reject })) };
  }
}

/** A feed over a store whose commits are durable when the test says, and what its one follower heard (seq × 100 + note). */
function heldFeed() {
  const feed = new ChangeFeed(recordingLogger().logger);
  const held = new HeldStore(new OxigraphStore());
  const heard: number[] = [];
  feed.follow('engine', ({ seq, notes }) => heard.push(seq * 100 + numberOf(nth(notes, 0))));
  return { store: feed.store(held), held, heard };
}

describe('store: the change feed (one committed-and-durable event)', () => {
  it('publishes each commit once, in commit order, to the followers in the order they were added, with its notes', async () => {
    const { logger } = recordingLogger();
    const feed = new ChangeFeed(logger);
    const store = feed.store(new OxigraphStore());
    const heard: string[] = [];
    feed.follow('first', ({ seq, notes }) => heard.push(`first ${seq}:${notes.map(numberOf).join(',')}`));
    feed.follow('second', ({ seq, change }) => heard.push(`second ${seq}:${change.ops.length}`));
    for (const n of [1, 2, 3]) await (await store.commit(noted(n))).durable;
    await (
      await store.commit(insert(4))
    ).durable;
    expect(heard).to.deep.equal([
      'first 1:1',
      'second 1:1',
      'first 2:2',
      'second 2:1',
      'first 3:3',
      'second 3:1',
      'first 4:',
      'second 4:1',
    ]);
  });

  it('publishes only once durable, in commit order even when a later commit is durable first, and answers the writer after its followers', async () => {
    const { store, held, heard } = heldFeed();
    const first = (await store.commit(noted(1))).durable;
    const second = (await store.commit(noted(2))).durable;
    let secondAnswered = false;
    void second.then(() => {
      secondAnswered = true;
    });
    nth(held.held, 1).resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The second is durable, but the first is not: neither is published, and the second writer waits.
    expect(heard).to.deep.equal([]);
    expect(secondAnswered).to.equal(false);
    nth(held.held, 0).resolve();
    await first;
    await second;
    expect(heard).to.deep.equal([101, 202]);
  });

  it('runs a mark after every change handed in before it and before every later one, whichever is durable first (a log rotation)', async () => {
    const feed = new ChangeFeed(recordingLogger().logger);
    const held = new HeldStore(new OxigraphStore());
    const store = feed.store(held);
    const heard: string[] = [];
    feed.follow('engine', ({ notes }) => heard.push(`change ${numberOf(nth(notes, 0))}`));
    const first = (await store.commit(noted(1))).durable;
    feed.afterPublished('rotation', () => heard.push('mark'));
    const second = (await store.commit(noted(2))).durable;
    // The later change is durable first: it still waits for the mark, which waits for the first.
    nth(held.held, 1).resolve();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).to.deep.equal([]);
    nth(held.held, 0).resolve();
    await first;
    await second;
    expect(heard).to.deep.equal(['change 1', 'mark', 'change 2']);
  });

  it('keeps going past a follower that throws: the commit stays, later followers run, the writer is answered, the failure is logged', async () => {
    const { logger, errors } = recordingLogger();
    const feed = new ChangeFeed(logger);
    const inner = new OxigraphStore();
    const store = feed.store(inner);
    const after: number[] = [];
    feed.follow('before', () => {});
    feed.follow('broken', ({ notes }) => {
      if (numberOf(nth(notes, 0)) === 1) throw new Error('cache exploded');
    });
    feed.follow('after', ({ notes }) => after.push(numberOf(nth(notes, 0))));
    await (
      await store.commit(noted(1))
    ).durable;
    await (
      await store.commit(noted(2))
    ).durable;
    expect(after, 'the follower after the broken one heard both').to.deep.equal([1, 2]);
    expect(await inner.ask('ASK { GRAPH <urn:uuid:g1> { <urn:s:1> ?p ?o } }')).to.equal(true);
    expect(feed.failures.get('broken')).to.equal(1);
    expect(errors).to.have.length(1);
    expect(nth(errors, 0).fields).to.deep.include({ follower: 'broken', seq: 1, error: 'cache exploded' });
  });

  it('skips a change the store refuses or cannot make durable, and publishes the next ones', async () => {
    const { store, held, heard } = heldFeed();
    const refused: Change = { ops: [{ op: 'insert', nquads: 'not n-quads' }], notes: [note(9)] };
    expect(await rejection(store.commit(refused))).to.be.instanceOf(Error);
    const lost = (await store.commit(noted(1))).durable;
    const kept = (await store.commit(noted(2))).durable;
    nth(held.held, 0).reject(new Error('disk full'));
    nth(held.held, 1).resolve();
    expect((await rejection(lost))?.message).to.equal('disk full');
    await kept;
    // Neither the refused change nor the one whose log write failed was published: followers hold what a restart would.
    expect(heard).to.deep.equal([102]);
  });

  describe('with the embedded store and its log', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'dataspace-feed-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('gives the store and the followers the ops only: notes are neither logged nor posted on', async () => {
      const { logger } = recordingLogger();
      const { store: embedded } = openEmbeddedStore(dir, false, logger);
      const feed = new ChangeFeed(logger);
      const store: QuadStore = feed.store(embedded);
      const published: CommittedChange[] = [];
      feed.follow('engine', (committed) => published.push(committed));
      await (
        await store.commit(noted(7))
      ).durable;
      await embedded.close();
      const { changes } = readLog(join(dir, logFileName(nth(logGenerations(dir), 0))));
      expect(changes).to.deep.equal([insert(7)]);
      expect(nth(published, 0).change).to.deep.equal(insert(7));
      expect(nth(published, 0).notes).to.deep.equal([note(7)]);
    });
  });
});
