import { NQuadsBuilder } from '../rdf/nquads.js';
import { svc, unece } from '../rdf/namespaces.js';

/**
 * The public link from a consignment to one of its events or document revisions, written into that
 * event's or revision's own data graph. The consignment's link in the metadata graph (svc:consignment)
 * is hidden from readers; this one travels with the graph, so whoever may read the event or document
 * (the policies decide per graph, unchanged) can join it to its consignment in SPARQL, and a
 * consignment's export is one connected description rooted at its globalId.
 *
 * The subject is the consignment, so the event's or document's own framed read view is unchanged.
 * D23B has Consignment → Document (`associatedDocument`) but nothing from Consignment to a
 * SupplyChainEvent (its `transportEvent` ranges over TransportEvent), so events use `svc:event`.
 */
export const EVENT_LINK = svc('event');
export const DOCUMENT_LINK = unece('associatedDocument');

export function eventLink(consignmentGlobalId: string, eventGraph: string): string {
  return new NQuadsBuilder(eventGraph).iri(consignmentGlobalId, EVENT_LINK, eventGraph).toString();
}

export function documentLink(consignmentGlobalId: string, revisionGraph: string): string {
  return new NQuadsBuilder(revisionGraph).iri(consignmentGlobalId, DOCUMENT_LINK, revisionGraph).toString();
}
