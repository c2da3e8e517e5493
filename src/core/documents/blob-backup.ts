import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from '../ports/blob-store.js';

const SHA256 = /^[0-9a-f]{64}$/;

export interface BlobsCopied {
  /** The directory the files were written to or read from. */
  dir: string;
  files: number;
  bytes: number;
}

/** Where an export to `file` keeps the documents' files: beside it, in the blob store's own layout. */
export const blobsDirOf = (file: string): string => `${file}.blobs`;

/** The files of a blob store's directory (`ab/abcdef…`), by sha-256; temporary files are skipped. */
async function* blobFiles(dir: string): AsyncGenerator<{ sha256: string; path: string }> {
  if (!existsSync(dir)) return;
  for (const prefix of (await readdir(dir)).sort()) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    for (const name of (await readdir(join(dir, prefix))).sort()) {
      if (SHA256.test(name) && name.startsWith(prefix)) yield { sha256: name, path: join(dir, prefix, name) };
    }
  }
}

/**
 * Copies every document file of `blobsDir` (a data dir's `blobs/`) to `target`, one file at a time on
 * the thread pool. Run after the graphs are exported: a file is stored before any record names it, so
 * every file a record in the export names is here, even beside a running node.
 */
export async function exportBlobs(blobsDir: string, target: string, onFile?: (copied: BlobsCopied) => void): Promise<BlobsCopied> {
  const copied: BlobsCopied = { dir: target, files: 0, bytes: 0 };
  await mkdir(target, { recursive: true });
  for await (const blob of blobFiles(blobsDir)) {
    await mkdir(join(target, blob.sha256.slice(0, 2)), { recursive: true });
    await copyFile(blob.path, join(target, blob.sha256.slice(0, 2), blob.sha256));
    copied.files += 1;
    copied.bytes += (await stat(blob.path)).size;
    onFile?.(copied);
  }
  return copied;
}

/** Stores every file of an export's blobs directory in `blobs`, refusing one whose bytes do not match its name. */
export async function importBlobs(source: string, blobs: BlobStore, onFile?: (copied: BlobsCopied) => void): Promise<BlobsCopied> {
  const copied: BlobsCopied = { dir: source, files: 0, bytes: 0 };
  for await (const blob of blobFiles(source)) {
    const bytes = await readFile(blob.path);
    if (createHash('sha256').update(bytes).digest('hex') !== blob.sha256) {
      throw new Error(`The document file ${blob.path} does not match its sha-256 name: the export is damaged`);
    }
    await blobs.put(bytes);
    copied.files += 1;
    copied.bytes += bytes.length;
    onFile?.(copied);
  }
  return copied;
}
