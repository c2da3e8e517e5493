import type { ChangeNote } from '../../../core/catalog/change-notes.js';
import type { NodeChange } from '../../../core/store/change-feed.js';
import type { Change } from '../../../core/ports/quad-store.js';
import { GRAPHS } from '../../../core/rdf/namespaces.js';

/** In-memory state a follower reads again when a commit touched it (commit-follower.ts). */
export type Reload = 'registry' | 'endpoints' | 'all';

/** One commit as the writer records it for the other replicas (deploy/postgres/commit-append.sql). */
export interface CommitRow {
  position: number;
  notes: ChangeNote[];
  reload: Reload[];
}

const REGISTRY = `<${GRAPHS.registry}>`;

/**
 * The state beyond the read caches a commit changed, from its ops: organisations, users, clients and
 * revoked tokens live in the registry graph; notification endpoints are outbox resources of their own
 * type (core/notify/endpoints.ts), apart from the deliveries written there on every commit.
 */
export function reloadsOf(change: Change): Reload[] {
  let registry = false;
  let endpoints = false;
  for (const op of change.ops) {
    if (op.op === 'insert' || op.op === 'replaceGraph') {
      if (op.op === 'replaceGraph' ? op.graph === GRAPHS.registry : op.nquads.includes(REGISTRY)) registry = true;
      if (op.nquads.includes('NotificationEndpoint>')) endpoints = true;
    } else if (op.graph === GRAPHS.registry) registry = true;
  }
  return [...(registry ? (['registry'] as const) : []), ...(endpoints ? (['endpoints'] as const) : [])];
}

/**
 * The notes the read caches and the policies follow, cut to what they read (cache-follower.ts,
 * coverage-policies.ts): an accepted activity's consignment ids and graphs, not its record.
 */
export function followedNotes({ notes }: NodeChange): ChangeNote[] {
  const kept: ChangeNote[] = [];
  for (const note of notes) {
    if (note.kind === 'system-event' || note.kind === 'policies') kept.push(note);
    else {
      const { accepted, entry } = note;
      const { consignment, globalId, identifier, stateGraph } = accepted.consignment;
      kept.push({
        kind: 'accepted',
        entry,
        accepted: { ...accepted, document: undefined, consignment: { consignment, globalId, identifier, stateGraph } },
      } as ChangeNote);
    }
  }
  return kept;
}
