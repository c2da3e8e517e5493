import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { BlobStore } from '../../src/core/ports/blob-store.js';

/**
 * What every BlobStore (documents' files by their sha-256) answers, whichever keeps the bytes: the
 * data dir (core/ports/blob-store.ts) or PostgreSQL (adapters/postgres/postgres-blobs.ts). `make` gives an empty
 * store; `again` the same store as another process would open it.
 */
export function blobStoreContract(make: () => Promise<{ store: BlobStore; again: () => Promise<BlobStore> }>): void {
  describe('BlobStore contract', () => {
    it('keeps bytes under their sha-256 and gives them back as they were', async () => {
      const { store } = await make();
      for (const bytes of [Buffer.alloc(0), Buffer.from('%PDF-1.7 invoice'), randomBytes(1024 * 1024)]) {
        const sha256 = await store.put(bytes);
        expect(sha256).to.equal(createHash('sha256').update(bytes).digest('hex'));
        expect((await store.get(sha256))?.equals(bytes)).to.equal(true);
      }
    });

    it('stores the same bytes once: a second put answers the same id', async () => {
      const { store } = await make();
      const bytes = Buffer.from('the same file, fetched twice');
      const first = await store.put(bytes);
      expect(await store.put(Buffer.from(bytes))).to.equal(first);
      expect((await store.get(first))?.toString()).to.equal('the same file, fetched twice');
    });

    it('answers undefined for a sha-256 it does not hold', async () => {
      const { store } = await make();
      expect(await store.get(createHash('sha256').update('never stored').digest('hex'))).to.equal(undefined);
    });

    it('keeps what was put for a store opened again', async () => {
      const { store, again } = await make();
      const sha256 = await store.put(Buffer.from('durable before any record names it'));
      expect((await (await again()).get(sha256))?.toString()).to.equal('durable before any record names it');
    });
  });
}
