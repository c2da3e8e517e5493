import { expect } from 'chai';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../../../src/core/logger.js';
import { QueryBank } from '../../../../../src/core/queries/query-bank.js';
import { GRAPHS, svc } from '../../../../../src/core/rdf/namespaces.js';
import type { Change } from '../../../../../src/core/ports/quad-store.js';
import { openEmbeddedStore, StoreRecoveryError } from '../../../../../src/adapters/oxigraph/recovery/recovery.js';
import { snapshotFileName } from '../../../../../src/adapters/oxigraph/recovery/snapshot-files.js';
import { Snapshotter } from '../../../../../src/adapters/oxigraph/recovery/snapshot.js';
import { logFileName } from '../../../../../src/adapters/oxigraph/log/write-ahead-log.js';
import { EngineCopy } from '../../../../../src/adapters/sparql-endpoint/engine/engine-copy.js';

const logger = createLogger('silent');
const queries = new QueryBank();
const M = GRAPHS.metadata;

/** A data graph with a blank node, its metadata (one predicate the catalog keeps, one it drops). */
function publish(n: number): Change {
  const graph = `urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    ops: [
      { op: 'insert', nquads: `<${graph}#root> <urn:p:party> _:p${n} <${graph}> .\n_:p${n} <urn:p:name> "party ${n}" <${graph}> .\n` },
      {
        op: 'insert',
        nquads: `<${graph}> <${svc('kind')}> <${svc('ConsignmentState')}> <${M}> .\n<${graph}> <urn:p:seq> "${n}" <${M}> .\n`,
      },
    ],
  };
}

/**
 * The SPARQL engine thread's copy recovers through the store's own replay (adapters/oxigraph/recovery/data-dir-replay.ts):
 * whatever damage the node's store refuses to start from, the copy refuses too, with the same error,
 * rather than answering queries over a part of the data.
 */
describe('SPARQL engine copy: recovery from the data dir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-copy-'));
    const { store } = openEmbeddedStore(dir, false, logger);
    for (let i = 0; i < 10; i++) await (await store.commit(publish(i))).durable;
    await new Snapshotter(store, queries, { dir, fsync: false, logBytesThreshold: 1 << 30, logger }).take();
    for (let i = 10; i < 15; i++) await (await store.commit(publish(i))).durable;
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the data graphs and the catalog metadata of snapshot and log, and drops the rest', () => {
    // 15 graphs × 2 data quads + 15 svc:kind quads kept; the urn:p:seq metadata is not the catalog's.
    expect(new EngineCopy(queries).recover(dir, logger)).to.equal(45);
  });

  const damages: [string, (dir: string) => void, RegExp][] = [
    [
      'a snapshot without its completion trailer',
      (d) => {
        const path = join(d, snapshotFileName(1));
        const text = readFileSync(path, 'utf8');
        writeFileSync(path, text.slice(0, text.lastIndexOf('# snapshot complete')));
      },
      /no completion trailer/,
    ],
    [
      'a snapshot holding fewer quads than its trailer says',
      (d) => {
        const path = join(d, snapshotFileName(1));
        writeFileSync(path, readFileSync(path, 'utf8').replace(/^<urn:uuid:[^\n]*\n/m, ''));
      },
      /trailer says/,
    ],
    ['the log that follows the snapshot missing', (d) => renameSync(join(d, logFileName(1)), join(d, logFileName(2))), /is missing/],
    [
      'a damaged record followed by intact ones',
      (d) => {
        const path = join(d, logFileName(1));
        const bytes = readFileSync(path);
        bytes[12]! ^= 0xff;
        writeFileSync(path, bytes);
      },
      /damaged record followed by intact ones/,
    ],
  ];
  for (const [what, damage, message] of damages) {
    it(`refuses ${what}, as the node's store does`, () => {
      damage(dir);
      expect(() => openEmbeddedStore(dir, false, logger, { readOnly: true }), 'the store').to.throw(StoreRecoveryError, message);
      expect(() => new EngineCopy(queries).recover(dir, logger), 'the engine copy').to.throw(StoreRecoveryError, message);
    });
  }
});
