import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logFileName, readLog, WriteAheadLog } from '../../../../../src/adapters/oxigraph/log/write-ahead-log.js';

const change = (n: number) => ({ ops: [{ op: 'insert' as const, nquads: `<urn:s> <urn:p> "${n}" <urn:g> .\n` }] });
const numbers = (path: string) => readLog(path).changes.map((c) => Number(/"(\d+)"/.exec((c.ops[0] as { nquads: string }).nquads)![1]));

describe('store: write-ahead log', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-wal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('group-commits appends made while a sync runs, and counts the batch sizes', async () => {
    const log = new WriteAheadLog(join(dir, logFileName(0)), true);
    await Promise.all(Array.from({ length: 50 }, (_, i) => log.append(change(i))));
    expect(log.stats.records).to.equal(50);
    expect(log.stats.syncs).to.be.below(50);
    expect(log.stats.maxBatch).to.be.above(1);
    await log.close();
    expect(numbers(join(dir, logFileName(0)))).to.deep.equal([...Array(50).keys()]);
  });

  it('rotates at an exact point of the append order, even with appends still being written', async () => {
    const log = new WriteAheadLog(join(dir, logFileName(0)), true);
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) pending.push(log.append(change(i)));
    expect(log.rotate()).to.equal(1);
    for (let i = 10; i < 20; i++) pending.push(log.append(change(i)));
    await Promise.all(pending);
    await log.close();
    expect(numbers(join(dir, logFileName(0)))).to.deep.equal([...Array(10).keys()]);
    expect(numbers(join(dir, logFileName(1)))).to.deep.equal([...Array(10).keys()].map((i) => i + 10));
  });
});
