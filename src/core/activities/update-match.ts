import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { unece } from '../rdf/namespaces.js';
import type { ConsignmentRecord } from '../catalog/records.js';
import type { TaskError } from '../catalog/log-entry.js';

export interface RecordLookup {
  byGlobalId(globalId: string): Promise<ConsignmentRecord | undefined>;
  byIdentifier(owner: string, identifier: string): Promise<ConsignmentRecord | undefined>;
}

export type UpdateMatch = { ok: true; record: ConsignmentRecord; warning?: string } | { ok: false; error: TaskError };

/**
 * Spec 4.2: an Update "modifies the consignment matched by globalId or identifier". Identifiers are
 * unique per publisher only, so the identifier matches among the sender's own consignments; a globalId
 * is global.
 * - globalId matches one of the sender's consignments: that one; the identifier may change,
 *   unless it already names another of the sender's consignments (Conflict: the two point at different
 *   consignments).
 * - globalId matches nothing, identifier matches one of the sender's: that consignment. Its globalId
 *   stays (a globalId never changes: events, documents, policies and signals name it); the log entry
 *   warns that the sent globalId was not used.
 * - neither matches: NotFound. Another organisation's consignment counts as no match, so the answer
 *   is the same as for a globalId no one uses (issue 33: nothing tells a sender it exists).
 */
export async function matchUpdate(records: RecordLookup, owner: string, globalId: string, identifier: string): Promise<UpdateMatch> {
  // Another organisation's consignment is answered as one that does not exist: no sender learns it does.
  const [found, byIdentifier] = await Promise.all([records.byGlobalId(globalId), records.byIdentifier(owner, identifier)]);
  const byGlobalId = found?.owner === owner ? found : undefined;
  if (byGlobalId) {
    if (byIdentifier && byIdentifier.consignment !== byGlobalId.consignment) {
      return fail(
        'Conflict',
        `globalId ${globalId} and identifier ${identifier} name different consignments of yours (identifier ${identifier} is consignment ${byIdentifier.globalId}); nothing was changed`,
      );
    }
    return { ok: true, record: byGlobalId };
  }
  if (byIdentifier) {
    return {
      ok: true,
      record: byIdentifier,
      warning: `No consignment has globalId ${globalId}; matched by identifier ${identifier}, whose globalId ${byIdentifier.globalId} is kept (a globalId never changes)`,
    };
  }
  return fail('NotFound', `No consignment with globalId ${globalId}, nor one of yours with identifier ${identifier}, exists`);
}

const { DataFactory } = n3;

const fail = (name: string, message: string): UpdateMatch => ({ ok: false, error: { name, message } });

/** The object's quads with its globalId literal set to the consignment's own (matched by identifier). */
export function keepGlobalId(quads: Quad[], object: Term, globalId: string): Quad[] {
  return quads.map((q) =>
    q.subject.termType === object.termType &&
    q.subject.value === object.value &&
    q.predicate.value === unece('globalId') &&
    q.object.termType === 'Literal' &&
    q.object.value !== globalId
      ? DataFactory.quad(
          q.subject,
          q.predicate,
          DataFactory.literal(globalId, q.object.language || DataFactory.namedNode(q.object.datatype.value)),
          q.graph,
        )
      : q,
  );
}
