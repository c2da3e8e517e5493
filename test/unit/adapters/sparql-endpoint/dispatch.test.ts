import { expect } from 'chai';
import { Dispatch, runningCapPerOwner } from '../../../../src/adapters/sparql-endpoint/dispatch.js';
import { FairQueue } from '../../../../src/core/util/fair-queue.js';
import { nth } from '../../../helpers/present.js';

/**
 * Simulates the engine: `threads` threads, jobs named `<owner><n>`; `free()` gives every idle thread the
 * job Dispatch chooses and returns what started; `end(job)` frees its thread.
 */
function engine(threads: number) {
  const dispatch = new Dispatch<string>(threads, 8, 64);
  const running = new Set<string>();
  const ownerOf = (job: string) => job.charAt(0);
  return {
    dispatch,
    running,
    push: (...jobs: string[]) => jobs.forEach((job) => expect(dispatch.push(ownerOf(job), job)).to.equal(undefined)),
    free(): string[] {
      const started: string[] = [];
      while (running.size < threads) {
        const next = dispatch.next();
        if (!next) break;
        expect(next.owner).to.equal(ownerOf(next.job));
        running.add(next.job);
        started.push(next.job);
      }
      return started;
    },
    end(job: string): void {
      expect(running.delete(job), job).to.equal(true);
      dispatch.finished(ownerOf(job));
    },
  };
}

describe('SPARQL dispatch: engine threads shared between organisations', () => {
  const caps: [number, number][] = [
    [1, 1],
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
    [8, 4],
  ];
  for (const [threads, cap] of caps) {
    it(`${threads} thread(s): an organisation runs at most ${cap} at once, and leaves a thread to others when there are two or more`, () => {
      expect(runningCapPerOwner(threads)).to.equal(cap);
      if (threads >= 2) expect(cap).to.be.below(threads);
    });
  }

  it('two threads: one organisation flooding holds one thread; the other thread waits for anyone else', () => {
    const e = engine(2);
    e.push('a1', 'a2', 'a3', 'a4');
    expect(e.free()).to.deep.equal(['a1']);
    expect(e.dispatch.runningFor('a')).to.equal(1);
    // The free thread is taken by the next organisation that asks, at once.
    e.push('b1');
    expect(e.free()).to.deep.equal(['b1']);
    e.push('b2', 'c1');
    expect(e.free()).to.deep.equal([]);
    // b1 ends: its thread goes to the next turn (b2 was queued before c1), never to a, which still runs a1.
    e.end('b1');
    expect(e.free()).to.deep.equal(['b2']);
    e.end('a1');
    // a's turn: a2 came before c1 in the round.
    expect(e.free()).to.deep.equal(['a2']);
    e.end('b2');
    expect(e.free()).to.deep.equal(['c1']);
  });

  it('four threads: an organisation takes two, the other two stay for others; a free thread is taken by a waiting job of another organisation', () => {
    const e = engine(4);
    e.push('a1', 'a2', 'a3', 'a4', 'a5');
    expect(e.free()).to.deep.equal(['a1', 'a2']);
    e.push('b1', 'b2', 'b3', 'c1');
    expect(e.free()).to.deep.equal(['b1', 'c1']);
    e.end('c1');
    // a is at its cap of 2, b has one running: c's thread goes to b.
    expect(e.free()).to.deep.equal(['b2']);
    e.end('a1');
    expect(e.free()).to.deep.equal(['a3']);
    expect(e.dispatch.runningFor('a')).to.equal(2);
    expect(e.dispatch.runningFor('b')).to.equal(2);
  });

  it('never runs more than the cap for an owner, over a random schedule', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const threads of [1, 2, 3, 4, 6]) {
      const e = engine(threads);
      const cap = runningCapPerOwner(threads);
      let n = 0;
      for (let step = 0; step < 2000; step++) {
        if (random() < 0.5) {
          const owner = 'abc'.charAt(Math.floor(random() * 3));
          if (e.dispatch.push(owner, `${owner}${n++}`)) continue;
        } else if (e.running.size > 0) {
          e.end(nth([...e.running], Math.floor(random() * e.running.size)));
        }
        e.free();
        for (const owner of 'abc') expect(e.dispatch.runningFor(owner)).to.be.at.most(cap);
        // Work-conserving: a thread is left idle only while every owner with jobs waiting is at its cap.
        if (e.running.size < threads) {
          for (const owner of 'abc')
            if (e.dispatch.waitingFor(owner) > 0) expect(e.dispatch.runningFor(owner), `${threads} threads, ${owner}`).to.equal(cap);
        }
      }
    }
  });
});

describe('FairQueue.shiftWhere: turns skip an ineligible owner without losing its place', () => {
  it('passes over an owner at its cap and gives it the next turn once eligible', () => {
    const q = new FairQueue<string>(10, 100);
    q.push('a', 'a1');
    q.push('a', 'a2');
    q.push('b', 'b1');
    q.push('c', 'c1');
    expect(q.shiftWhere((o) => o !== 'a')).to.deep.equal({ owner: 'b', job: 'b1' });
    expect(q.shiftWhere(() => true)).to.deep.equal({ owner: 'a', job: 'a1' });
    expect(q.shiftWhere(() => false)).to.equal(undefined);
    expect(q.size).to.equal(2);
    expect([q.shift(), q.shift(), q.shift()]).to.deep.equal(['c1', 'a2', undefined]);
  });
});
