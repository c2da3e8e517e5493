import { expect } from 'chai';
import { imageCopyBuffer, residentBuffer } from '../../../../../src/adapters/oxigraph/wasm/image-pages.js';

const MB = 1024 * 1024;

describe('image copy buffers', () => {
  it('are made on a thread of their own and handed over, not copied, zeroed', async () => {
    const buffer = await residentBuffer(3 * MB + 5);
    expect(buffer.buffer).to.be.instanceOf(ArrayBuffer);
    expect(buffer.length).to.equal(3 * MB + 5);
    expect(Buffer.from(buffer.buffer).equals(Buffer.alloc(buffer.length))).to.equal(true);
    // The copy an image makes into it works as into any buffer.
    buffer.set([1, 2, 3], MB);
    expect([...buffer.subarray(MB, MB + 3)]).to.deep.equal([1, 2, 3]);
  });

  it('hold the whole memory or a quarter more than the newest image, whichever is more, plus 32 MB', async () => {
    expect((await imageCopyBuffer(8 * MB, 0))!.length).to.equal(40 * MB);
    expect((await imageCopyBuffer(8 * MB, 8 * MB))!.length).to.equal(42 * MB);
  });

  it('are none when the thread is stopped first: the copy then allocates its own', async () => {
    const stop = new AbortController();
    const made = imageCopyBuffer(64 * MB, 0, stop.signal);
    stop.abort();
    expect(await made).to.equal(undefined);
  });
});
