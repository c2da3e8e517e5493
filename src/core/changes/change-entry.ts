import type { PolicyFacts } from '../catalog/change-notes.js';

/** What a data change did to a consignment. */
export type DataChange = 'consignment-created' | 'consignment-updated' | 'event-added' | 'document-added' | 'document-revised';

/**
 * A place in the journal: a data change takes the node's sequence number (`seq`, `sub` 0); a policy
 * change comes after the last data change published before it (`seq` that change's, `sub` 1, 2, …).
 * Both are fixed when the change is published, in commit order, so the order never changes later.
 */
export interface Position {
  seq: number;
  sub: number;
}

export interface DataEntry {
  kind: 'data';
  at: Position;
  change: DataChange;
  /** The consignment record (urn:dataspace:consignment:…). */
  consignment: string;
  globalId: string;
  owner: string;
  published: string;
  /** The route as this change left it: on a create or update only (the rule reads it for location operators). */
  routes?: readonly string[];
  typeCode?: string;
  revision?: number;
}

/**
 * A policy change as what it did: the policies registered and the ids of those withdrawn, so an entry
 * costs the size of the policies it changed, never of all in force. A change whose writer did not say
 * what it was is recorded as every policy in force after it (`policies`, a full statement).
 */
export interface PolicyEntry {
  kind: 'policies';
  at: Position;
  published: string;
  registered?: readonly PolicyFacts[];
  withdrawn?: readonly string[];
  policies?: readonly PolicyFacts[];
}

export type ChangeEntry = DataEntry | PolicyEntry;

export const compare = (a: Position, b: Position): number => a.seq - b.seq || a.sub - b.sub;

/** A journal entry's subject IRI. */
export const entryIri = (at: Position): string => `urn:dataspace:change:${at.seq}-${at.sub}`;

/** An entry read back from its svc:changeEntry literal; throws on one the journal did not write. */
export function parseEntry(text: string): ChangeEntry {
  const entry = JSON.parse(text) as ChangeEntry;
  if ((entry.kind !== 'data' && entry.kind !== 'policies') || typeof entry.at?.seq !== 'number' || typeof entry.at.sub !== 'number') {
    throw new Error(`A change-journal entry is not one the node writes: ${text.slice(0, 120)}`);
  }
  return entry;
}
