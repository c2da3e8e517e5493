import type { BlobStore } from '../ports/blob-store.js';
import type { FileFetcher } from './file-fetcher.js';
import type { StorageQuota } from './storage-quota.js';
import type { FairSlots } from '../util/fair-slots.js';
import { dataUrlMediaTypeProblem } from './data-url-media-type.js';
import { InsufficientStorage, Unprocessable } from '../errors.js';

const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xml: 'application/xml',
  json: 'application/json',
  txt: 'text/plain',
  csv: 'text/csv',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  zip: 'application/zip',
  html: 'text/html',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
const EXTENSIONS = Object.fromEntries(
  Object.entries(MEDIA_TYPES)
    .reverse()
    .map(([ext, type]) => [type, ext]),
);

/** The extension of the URL's last path segment (none for data: URLs). */
export function extensionOf(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    const url = new URL(uri);
    if (url.protocol === 'data:') return undefined;
    return /\.([A-Za-z0-9]{1,8})$/.exec(url.pathname)?.[1]!.toLowerCase();
  } catch {
    return undefined;
  }
}

export const mediaTypeOfExtension = (extension: string | undefined): string | undefined => (extension ? MEDIA_TYPES[extension] : undefined);

/** What the node knows about a document revision's file. */
export type FileOutcome =
  | { ok: true; sha256: string; size: number; encodingFormat: string; fileExtension: string | undefined }
  | { ok: false; reason: string; encodingFormat: string | undefined; fileExtension: string | undefined };

/** Fetches a Document's file and keeps its bytes, before the activity takes the ingest lock. */
export class DocumentFiles {
  constructor(
    private readonly fetcher: FileFetcher,
    readonly blobs: BlobStore,
    private readonly quota?: StorageQuota,
    /** Fetches at once, in turns by organisation, each within its share (DATASPACE_FETCH_CONCURRENCY). */
    private readonly slots?: FairSlots,
  ) {}

  /**
   * Called only once the caller may write the target consignment. A data: URL whose media type could
   * never be sent as a Content-Type is refused (422) here rather than failing every later download; a
   * file that would take `organisation` past its quota is refused (507) and not kept.
   */
  async prepare(uri: string | undefined, organisation?: string): Promise<FileOutcome> {
    const urlExtension = extensionOf(uri);
    if (!uri) return { ok: false, reason: 'The document has no uRIId', encodingFormat: undefined, fileExtension: undefined };
    const problem = dataUrlMediaTypeProblem(uri);
    if (problem) {
      throw new Unprocessable(problem, {
        results: [
          { focusNode: 'object', path: 'uRIId', message: problem, severity: 'Violation', sourceShape: 'DocumentShape', value: null },
        ],
      });
    }
    if (this.quota && organisation !== undefined && this.quota.remaining(organisation) === 0) throw this.full();
    const fetched =
      this.slots && organisation !== undefined
        ? await this.slots.run(organisation, () => this.fetcher.fetch(uri))
        : await this.fetcher.fetch(uri);
    if (!fetched.ok)
      return { ok: false, reason: fetched.reason, encodingFormat: mediaTypeOfExtension(urlExtension), fileExtension: urlExtension };
    if (this.quota && organisation !== undefined && !this.quota.charge(organisation, fetched.bytes.length))
      throw this.full(fetched.bytes.length);
    // A generic type from the server says less than the file name does.
    const declared = fetched.mediaType && fetched.mediaType !== 'application/octet-stream' ? fetched.mediaType : undefined;
    const encodingFormat = declared ?? mediaTypeOfExtension(urlExtension) ?? 'application/octet-stream';
    const sha256 = await this.blobs.put(fetched.bytes);
    return { ok: true, sha256, size: fetched.bytes.length, encodingFormat, fileExtension: urlExtension ?? EXTENSIONS[encodingFormat] };
  }

  private full(size?: number): InsufficientStorage {
    const file = size === undefined ? 'more files' : `this file (${size} bytes)`;
    return new InsufficientStorage(
      `Your organisation's document storage is full: ${file} would exceed its quota of ${this.quota!.limitBytes} bytes (DATASPACE_DOCUMENT_QUOTA_BYTES); nothing was stored`,
    );
  }
}
