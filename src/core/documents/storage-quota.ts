import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';

/**
 * Bytes of document files each organisation has had the node keep, against DATASPACE_DOCUMENT_QUOTA_BYTES
 * (0 = no quota). Counted from the metadata at start, then charged as files are kept; a file is charged
 * once per revision that names it, so an organisation cannot fill the disk by sending the same
 * large file under many documents either.
 */
export class StorageQuota {
  private readonly used = new Map<string, number>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    readonly limitBytes: number,
  ) {}

  async load(): Promise<void> {
    if (this.limitBytes === 0) return;
    for (const row of await this.store.select(this.queries.text('documents/stored-bytes-by-publisher'))) {
      this.used.set(row.get('publisher')!.value, Number(row.get('bytes')!.value));
    }
  }

  /** Bytes `organisation` may still store; Infinity without a quota. */
  remaining(organisation: string): number {
    return this.limitBytes === 0 ? Infinity : Math.max(0, this.limitBytes - (this.used.get(organisation) ?? 0));
  }

  /** Charges `bytes` when they fit in what is left, and says whether they did. */
  charge(organisation: string, bytes: number): boolean {
    if (bytes > this.remaining(organisation)) return false;
    this.used.set(organisation, (this.used.get(organisation) ?? 0) + bytes);
    return true;
  }
}
