import type { Accepted } from './accepted.js';

// A leaf: the store's Change (core/ports/quad-store.ts) carries these notes, so nothing here imports the store.

/**
 * What the node's writers tell the change feed about a commit, beyond its quads: the followers act on
 * these typed facts, never on the text of the quads.
 */
export type ChangeNote =
  /** The inbox accepted an activity: `entry` is its activity-log entry (urn:uuid:…). */
  | { kind: 'accepted'; accepted: Accepted; entry: string }
  /** System events were written about a consignment (record IRI) by a writer other than the inbox (signal delivery). */
  | { kind: 'system-event'; consignment: string }
  /**
   * Data-sharing policies were registered, withdrawn or applied from the seed: `registered` and
   * `withdrawn` (policy IRIs) say which where the writer knows (an API call); without them, any.
   */
  | { kind: 'policies'; registered?: readonly PolicyFacts[]; withdrawn?: readonly string[] };

/** A policy as its writer registered it (core/policy/policy-rdf.ts Policy): what coverage follows it by. */
export interface PolicyFacts {
  id: string;
  owner: string;
  role: string;
  countries: readonly string[];
  locations: readonly string[];
  consignments: readonly string[];
}

export const acceptedNote = (accepted: Accepted, entry: string): ChangeNote => ({ kind: 'accepted', accepted, entry });
export const systemEventNote = (consignment: string): ChangeNote => ({ kind: 'system-event', consignment });
export const POLICIES_CHANGED: ChangeNote = { kind: 'policies' };
export const policyRegistered = (policy: PolicyFacts): ChangeNote => ({ kind: 'policies', registered: [policy] });
export const policyWithdrawn = (policy: string): ChangeNote => ({ kind: 'policies', withdrawn: [policy] });

/** The activities a committed change accepted (none, or one from the inbox). */
export function acceptedIn(committed: { notes: readonly ChangeNote[] }): Extract<ChangeNote, { kind: 'accepted' }>[] {
  return committed.notes.filter((note): note is Extract<ChangeNote, { kind: 'accepted' }> => note.kind === 'accepted');
}
