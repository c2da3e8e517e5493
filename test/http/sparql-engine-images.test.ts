import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../src/core/logger.js';
import { engineImageFileName, engineImageGenerations } from '../../src/adapters/oxigraph/recovery/engine-image.js';
import { oxigraphWasmHash } from '../../src/adapters/oxigraph/wasm/oxigraph-instance.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { nth } from '../helpers/present.js';
import { GRAPHS_WITH_DATA, visibleGraphsWithData } from '../helpers/visible-graphs-oracle.js';

const SPARQL = '/supply-chain/data-space/sparql';
const QUADS_BY_GRAPH = 'SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g';
const CALLERS: UserName[] = ['forwarder', 'otherForwarder', 'border', 'douane'];
// Images at any size (the default minimum is 100k quads); both threads, as in production.
// A time limit a heavy query passes for sure, and no ordinary one here.
const ENV = { DATASPACE_STORE_IMAGE_MIN_QUADS: '0', DATASPACE_SPARQL_THREADS: '2', DATASPACE_SPARQL_TIMEOUT_MS: '4000' };
/** Costs the engine time without data: counting the rows of a cross product of VALUES (side³ rows). */
const heavy = (side: number) => {
  const values = (v: string) => `VALUES ?${v} { ${Array.from({ length: side }, (_, i) => i).join(' ')} }`;
  return `SELECT (COUNT(*) AS ?n) WHERE { ${values('a')} ${values('b')} ${values('c')} }`;
};

type Json = Record<string, any>;
type Line = { message: string } & Record<string, unknown>;

/** A logger that keeps the lines, to tell how the engine threads started. */
function capturing(lines: Line[]): Logger {
  const keep = (message: string, fields?: Record<string, unknown>) => {
    lines.push({ message, ...fields });
  };
  return { info: keep, warn: keep, error: keep, debug: keep };
}

/**
 * The SPARQL engine threads start from an engine image (issue 18): one thread saves its copy at the
 * snapshot's log rotation, and after a restart the threads restore it and replay the log after it.
 * They answer exactly what threads started from the N-Quads snapshot answer, each caller still sees
 * only the graphs policy lets it see, and a change committed after the image (or after the restart) is
 * visible; any doubt about the image falls back to the snapshot with the same answers.
 */
describe('SPARQL endpoint: engine threads started from an engine image', function () {
  this.timeout(120_000);
  const lines: Line[] = [];
  let dir: string;
  let node: TestNode;
  let generation: number;
  /** The engine image's bytes as written. */
  let image: Buffer;
  /** What every caller saw before the restart. */
  let expectedAnswers: Record<string, unknown>;

  const ask = async (user: UserName, query: string): Promise<Json> => {
    const res = await node.request('POST', SPARQL, {
      token: await node.login(user),
      rawBody: query,
      headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
    });
    expect(res.status, res.text).to.equal(200);
    return res.body.results.bindings;
  };
  const answers = async (): Promise<Record<string, unknown>> => {
    const all: Record<string, unknown> = {};
    for (const user of CALLERS)
      all[user] = {
        graphs: (await ask(user, GRAPHS_WITH_DATA)).map((b: Json) => b.g.value).sort(),
        quads: await ask(user, QUADS_BY_GRAPH),
      };
    return all;
  };
  const visible = (user: UserName): Promise<string[]> => visibleGraphsWithData(node, user);
  const create = async (user: UserName): Promise<void> => {
    const res = await node.publish(user, activity('Create', USERS[user].org, consignment()));
    expect(res.body.status, res.text).to.equal('completed');
  };
  /** The ready lines of the threads started since the last restart (waits for both). */
  const readyLines = async (): Promise<Line[]> => {
    for (let i = 0; i < 200 && lines.filter((l) => l.message === 'SPARQL engine thread ready').length < 2; i++)
      await new Promise((ok) => setTimeout(ok, 50));
    return lines.filter((l) => l.message === 'SPARQL engine thread ready');
  };
  /** The generation of the engine image written since `lines` was last cleared, once there is one. */
  const waitForImage = async (): Promise<number | undefined> => {
    const written = () => lines.find((l) => l.message === 'SPARQL engine image written')?.generation as number | undefined;
    for (let i = 0; i < 600 && written() === undefined; i++) await new Promise((ok) => setTimeout(ok, 50));
    return written();
  };
  const restart = async (): Promise<void> => {
    await node.stop(false);
    lines.length = 0;
    node = await TestNode.start(ENV, dir, capturing(lines));
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-images-'));
    node = await TestNode.start(ENV, dir, capturing(lines));
    await create('forwarder');
    await create('otherForwarder');
    // The GB border agencies may read the forwarders' consignments (their routes pass GB); douane nothing.
    const policy = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', { role: 'borderAgency', countries: ['GB'] });
    expect(policy.status, policy.text).to.equal(201);
    // The engine threads start, from the snapshot (there is no engine image yet): they ask for a log
    // rotation at once, and one of them saves its copy there, so the next start is from an image.
    await ask('border', GRAPHS_WITH_DATA);
    await readyLines();
    await node.node.capabilities.snapshots!.idle();
    const asked = await waitForImage();
    expect(asked, 'an engine image after a start from the snapshot').to.be.a('number');
    // A snapshot's rotation: an image of its own, the older one removed.
    lines.length = 0;
    const taken = await node.node.capabilities.snapshots!.take();
    generation = taken!.generation;
    for (let i = 0; i < 600 && !engineImageGenerations(dir).includes(generation); i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(engineImageGenerations(dir), 'the engine image of the rotation').to.deep.equal([generation]);
    expect(lines.find((l) => l.message === 'SPARQL engine image written')).to.include({ generation });
    image = readFileSync(join(dir, engineImageFileName(generation)));
    // A change after the image: in the log the restart replays over it.
    await create('forwarder');
    expectedAnswers = await answers();
  });
  after(async () => {
    await node.stop(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every caller as before the restart, from the image and the log after it', async () => {
    await restart();
    expect(await answers()).to.deep.equal(expectedAnswers);
    const ready = await readyLines();
    expect(ready.map((l) => [l.from, l.generation])).to.deep.equal([
      ['image', generation],
      ['image', generation],
    ]);
    expect(nth(ready, 0).ms).to.be.a('number');
  });

  it('starts a thread ended by a query past its time limit from the image too', async () => {
    lines.length = 0;
    const res = await node.request('POST', SPARQL, {
      token: await node.login('forwarder'),
      rawBody: heavy(400),
      headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
    });
    expect(res.status, res.text).to.equal(503);
    expect(res.body.name).to.equal('QueryTimeout');
    // The next query of that organisation needs the thread again: it comes back from the image.
    expect(await answers()).to.deep.equal(expectedAnswers);
    for (let i = 0; i < 200 && !lines.some((l) => l.message === 'SPARQL engine thread ready'); i++)
      await new Promise((ok) => setTimeout(ok, 50));
    expect(lines.filter((l) => l.message === 'SPARQL engine thread ready').map((l) => l.from)).to.deep.equal(['image']);
  });

  it('keeps each caller to the graphs policy lets it see', async () => {
    const border = (await ask('border', GRAPHS_WITH_DATA)).map((b: Json) => b.g.value).sort();
    expect(border).to.deep.equal(await visible('border'));
    expect(border).to.have.length.greaterThan(0);
    expect((await ask('douane', GRAPHS_WITH_DATA)).map((b: Json) => b.g.value)).to.deep.equal(await visible('douane'));
    expect(await visible('douane')).to.deep.equal([]);
  });

  it('sees a change committed after the restart at once (read-your-writes)', async () => {
    const graphs = async (user: UserName) => (await ask(user, GRAPHS_WITH_DATA)).map((b: Json) => b.g.value).sort();
    const had = (await graphs('forwarder')).length;
    await create('forwarder');
    expect(await graphs('forwarder')).to.have.length(had + 1);
    expect(await graphs('border')).to.deep.equal(await visible('border'));
    expectedAnswers = await answers();
  });

  const doubts: [string, (path: string) => void, RegExp][] = [
    ['a torn image', (path) => truncateSync(path, statSync(path).size - 1000), /torn|ends early|shorter/],
    [
      'an image from another Oxigraph build',
      (path) => {
        const text = readFileSync(path)
          .subarray(0, 64 * 1024)
          .toString('latin1');
        const at = text.indexOf(oxigraphWasmHash()!);
        const fd = openSync(path, 'r+');
        writeSync(fd, Buffer.from('f'.repeat(64)), 0, 64, at);
        closeSync(fd);
      },
      /another Oxigraph build/,
    ],
    ['no image', (path) => rmSync(path), /no engine image/],
  ];
  for (const [what, damage, reason] of doubts) {
    it(`falls back to the snapshot on ${what}, with the same answers`, async () => {
      await node.stop(false);
      // Each case damages the image as the rotation wrote it (the one a fallback start had written since is removed).
      for (const g of engineImageGenerations(dir)) rmSync(join(dir, engineImageFileName(g)));
      writeFileSync(join(dir, engineImageFileName(generation)), image);
      damage(join(dir, engineImageFileName(generation)));
      lines.length = 0;
      node = await TestNode.start(ENV, dir, capturing(lines));
      expect(await answers()).to.deep.equal(expectedAnswers);
      const ready = await readyLines();
      expect(ready.map((l) => l.from)).to.deep.equal(['snapshot', 'snapshot']);
      const notUsed = lines.filter((l) => l.message === 'SPARQL engine image not used; the thread read the N-Quads snapshot');
      expect(notUsed).to.have.length(2);
      expect(String(nth(notUsed, 0).reason)).to.match(reason);
      // Having read the snapshot, the threads asked for a rotation: the next start is from an image again.
      const next = await waitForImage();
      expect(next).to.be.greaterThan(generation);
      expect(engineImageGenerations(dir)).to.deep.equal([next]);
    });
  }
});

/** The header of an engine image (memory-image.ts: magic, length, JSON). */
function imageHeader(path: string): Json {
  const bytes = readFileSync(path);
  return JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString('utf8')) as Json;
}

/**
 * A thread replaced to give back the memory of removed quads reads the N-Quads snapshot, never an
 * engine image (which keeps them), and the images taken after it are of the compact copy.
 */
describe('SPARQL endpoint: engine images and memory compaction', function () {
  this.timeout(120_000);

  it('replaces a thread by a copy read from the snapshot, and images the compact copy afterwards', async () => {
    const lines: Line[] = [];
    const node = await TestNode.start(
      {
        ...ENV,
        DATASPACE_SPARQL_IDLE_MS: '0',
        DATASPACE_STORE_COMPACT_PERCENT: '50',
        DATASPACE_STORE_COMPACT_MIN_QUADS: '300',
        DATASPACE_SNAPSHOT_LOG_BYTES: '65536',
      },
      undefined,
      capturing(lines),
    );
    try {
      const token = await node.login('forwarder');
      const c = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      const replaced = () => lines.filter((l) => l.message === 'SPARQL engine thread replaced by a compact copy');
      for (let update = 0; update < 150 && replaced().length < 1; update++) {
        const res = await node.publish(
          'forwarder',
          activity('Update', USERS.forwarder.org, { ...c, summaryDescription: `Machine parts, revision ${update}` }),
        );
        expect(res.status, res.text).to.equal(201);
        const read = await node.request('POST', SPARQL, {
          token,
          rawBody: GRAPHS_WITH_DATA,
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
        });
        expect(read.status, read.text).to.equal(200);
      }
      expect(replaced(), 'a thread was replaced').to.have.length.greaterThan(0);
      expect(nth(replaced(), 0).from).to.equal('snapshot');
      // Once a replacement has taken over it asks for a rotation: the thread that saves its copy there
      // is the newest, a compact copy read from the snapshot, not one that has held every removed quad
      // since its start.
      // (An image asked for before the replacement, of an older copy, may still be written after it.)
      const after = lines.indexOf(nth(replaced(), 0));
      const asked = () => lines.slice(after).find((l) => l.message === 'SPARQL engine image asked');
      const written = () =>
        lines.slice(after).find((l) => l.message === 'SPARQL engine image written' && l.generation === asked()?.generation);
      const waitForImage = async () => {
        for (let i = 0; i < 600 && written() === undefined; i++) await new Promise((ok) => setTimeout(ok, 50));
      };
      await waitForImage();
      // No image at that rotation (an image was under way, or one was taken while the copy loaded): the
      // next snapshot's rotation has one, from the newest thread too.
      if (written() === undefined) {
        await node.node.capabilities.snapshots!.idle();
        await node.node.capabilities.snapshots!.take();
        await waitForImage();
      }
      const image = written();
      expect(image, 'an engine image asked for after the replacement').to.not.equal(undefined);
      expect(image!.thread).to.equal(asked()!.thread);
      // The other thread may have been replaced meanwhile too, or started (threads start as queries
      // wait): either way a copy that has not held the removed quads since before the replacement.
      const fresh = (l: Line) =>
        l.message === 'SPARQL engine thread replaced by a compact copy' || l.message === 'SPARQL engine thread ready';
      const compact = new Set([
        nth(replaced(), 0).thread,
        ...lines
          .slice(after, lines.indexOf(asked()!))
          .filter(fresh)
          .map((l) => l.thread),
      ]);
      expect(compact.has(image!.thread), `image by thread ${String(image!.thread)}; replaced: ${[...compact].join(', ')}`).to.equal(true);
      const header = imageHeader(join(node.config.dataDir, engineImageFileName(image!.generation as number)));
      expect(header.stores.data.quads).to.be.greaterThan(0);
    } finally {
      await node.stop();
    }
  });
});
