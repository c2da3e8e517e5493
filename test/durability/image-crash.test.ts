import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { untilTrue } from '../helpers/until.js';
import { publishers, verify, type Sent } from './publishers.js';

/** Kills the node while a memory image is being written, then damages images, and restarts each time. */
describe('durability: memory images under SIGKILL', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-image-crash-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A snapshot (and so an image, whatever the store's size) every 64 KiB of log.
  const env = { DATASPACE_SNAPSHOT_LOG_BYTES: '65536', DATASPACE_STORE_IMAGE_MIN_QUADS: '0' };
  const images = () =>
    readdirSync(dir)
      .filter((f) => /^image-\d{8}\.wimg$/.test(f))
      .sort();
  const writingImage = () => readdirSync(dir).some((f) => f.endsWith('.wimg.tmp'));
  const generationOf = (file: string | undefined) => (file === undefined ? -1 : Number(/\d{8}/.exec(file)![0]));
  const snapshots = () =>
    readdirSync(dir)
      .filter((f) => /^snapshot-\d{8}\.nq$/.test(f))
      .sort();
  /** No snapshot or image being written, and the newest snapshot has its image: what a restart will use. */
  const settled = () =>
    !readdirSync(dir).some((f) => f.endsWith('.tmp')) && generationOf(images().at(-1)) === generationOf(snapshots().at(-1));
  // Nodes that only restart and read take no snapshot of their own, so the files stay as set up.
  const quiet = { ...env, DATASPACE_SNAPSHOT_LOG_BYTES: String(1 << 30) };

  it('loses nothing acknowledged when killed during an image write, or restarted from a torn image or one of another build', async () => {
    const sent: Sent[] = [];
    const node = await ChildNode.start(dir, env);
    const load = publishers(node, 6);
    // Watch the directory closely: the kill must land while an image's .tmp file is being written.
    let caught = false;
    const watcher = setInterval(() => {
      if (!caught && existsSync(dir) && writingImage() && images().length > 0) {
        caught = true;
        node.process.kill('SIGKILL');
      }
    }, 1);
    try {
      await Promise.race([untilTrue(() => caught, 90_000), load.done]);
    } finally {
      clearInterval(watcher);
    }
    await node.exited;
    await load.stop();
    sent.push(...load.sent);
    expect(caught, 'killed while an image was being written').to.equal(true);
    expect(readdirSync(dir).some((f) => f.endsWith('.wimg.tmp'))).to.equal(true);

    // 1. After the kill: the snapshot of that generation was complete before its image began (or the
    // image before it is newest), so the store comes back from either, the log after it replayed.
    const second = await ChildNode.start(dir, env);
    try {
      const recovered = second.logLine('store recovered')!;
      expect([undefined, recovered.snapshotGeneration]).to.include(recovered.imageGeneration);
      expect(readdirSync(dir).some((f) => f.endsWith('.wimg.tmp'))).to.equal(false);
      expect((await verify(second, sent)).acknowledged).to.be.above(0);
      // Go on until this node has written an image of its own, then kill it again.
      const load2 = publishers(second, 4);
      const before = images().at(-1);
      await Promise.race([untilTrue(() => images().at(-1) !== before && !writingImage(), 60_000), load2.done]);
      await load2.stop();
      // Kill once the snapshots have settled (twice, a snapshot check apart), so the newest snapshot has its image.
      await untilTrue(settled, 60_000);
      await new Promise((ok) => setTimeout(ok, 1500));
      await untilTrue(settled, 60_000);
      await second.kill('SIGKILL');
      sent.push(...load2.sent);
    } finally {
      if (second.process.exitCode === null && second.process.signalCode === null) await second.kill('SIGKILL');
    }

    // 2. The newest image is whole: the store comes back from it.
    const newestBefore = Number(/\d{8}/.exec(images().at(-1)!)![0]);
    const third = await ChildNode.start(dir, quiet);
    try {
      const recovered = third.logLine('store recovered')!;
      expect(recovered.imageGeneration, JSON.stringify(recovered)).to.equal(newestBefore);
      await verify(third, sent);
    } finally {
      await third.kill('SIGKILL');
    }
    const newest = join(dir, images().at(-1)!);
    const whole = readFileSync(newest);

    // 3. A torn image (cut short): the N-Quads snapshot and the logs instead.
    truncateSync(newest, Math.floor(whole.length * 0.7));
    const fourth = await ChildNode.start(dir, quiet);
    try {
      const recovered = fourth.logLine('store recovered')!;
      expect(recovered.imageGeneration).to.equal(undefined);
      expect(recovered.imageRejected).to.match(/torn/);
      await verify(fourth, sent);
    } finally {
      await fourth.kill('SIGKILL');
    }

    // 4. An image taken by another Oxigraph build (another .wasm hash in its header).
    const at = whole.indexOf('"wasmHash":"') + '"wasmHash":"'.length;
    whole.write(whole[at] === 0x30 ? '1' : '0', at);
    writeFileSync(newest, whole);
    const fifth = await ChildNode.start(dir, quiet);
    try {
      const recovered = fifth.logLine('store recovered')!;
      expect(recovered.imageRejected).to.match(/another Oxigraph build/);
      expect((await verify(fifth, sent)).acknowledged).to.be.above(0);
    } finally {
      await fifth.kill('SIGKILL');
    }
  });
});
