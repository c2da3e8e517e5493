/** FNV-1a over UTF-16 code units: spreads IRIs and identifiers over the buckets well enough. */
function bucketOf(text: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & (buckets - 1);
}

// The versions of a key's bucket; `versions.length` is a power of two, so bucketOf stays inside it.
const versionOf = (versions: Uint32Array, key: string): number => versions[bucketOf(key, versions.length)]!;

function bump(versions: Uint32Array, key: string): void {
  const bucket = bucketOf(key, versions.length);
  versions[bucket] = versions[bucket]! + 1;
}

/**
 * Versions of what cached reads depend on, so a cache can tell whether an answer it kept is still the
 * store's: a consignment's version moves on every write about it (its record, state, events,
 * documents, system events), the policy epoch on every policy change, and an id's generation whenever
 * a consignment may have come to answer to it (a Create, an Update's identifier, a new activity).
 *
 * Versions are counted per hash bucket, not per key, so the clock's memory is fixed whatever the store
 * holds: two keys sharing a bucket only cost each other a cache miss. A reader takes the version
 * before it reads the store and keeps its answer under it; a write moves the version after it is
 * committed, so an answer read before the write can never pass for a later one.
 */
export class ChangeClock {
  private readonly consignments: Uint32Array;
  private readonly ids: Uint32Array;
  private policyEpoch = 0;

  constructor(buckets = 1 << 16) {
    if ((buckets & (buckets - 1)) !== 0) throw new Error('ChangeClock buckets must be a power of two');
    this.consignments = new Uint32Array(buckets);
    this.ids = new Uint32Array(buckets);
  }

  /** The version of everything stored about the consignment (record IRI). */
  consignment(consignment: string): number {
    return versionOf(this.consignments, consignment);
  }

  /** The generation of the consignments an id (globalId, identifier or activity urn) names. */
  id(id: string): number {
    return versionOf(this.ids, id);
  }

  get policies(): number {
    return this.policyEpoch;
  }

  /** A write about the consignment was committed; `ids` are ids it may now answer to. */
  consignmentChanged(consignment: string, ids: readonly string[] = []): void {
    bump(this.consignments, consignment);
    for (const id of ids) bump(this.ids, id);
  }

  /** A policy was registered or withdrawn: every coverage decision may have changed. */
  policiesChanged(): void {
    this.policyEpoch++;
  }

  /** Anything may have changed (a replica that missed commits it follows): no answer kept before passes for a later one. */
  everythingChanged(): void {
    for (const versions of [this.consignments, this.ids]) for (let i = 0; i < versions.length; i++) versions[i]! += 1;
    this.policyEpoch++;
  }
}
