export const UNECE = 'https://vocabulary.uncefact.org/';
export const SVC = 'https://w3id.org/supply-chain-dataspace/ns#';
export const AS = 'https://www.w3.org/ns/activitystreams#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const ODRL = 'http://www.w3.org/ns/odrl/2/';

export const RDF_TYPE = `${RDF}type`;
export const DID_TYPE = 'https://ref.gs1.org/voc/OrganizationID_Type-DID';

export const D23B_CONTEXT_URL = 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld';
export const ACTIVITYSTREAMS_CONTEXT_URL = 'https://www.w3.org/ns/activitystreams';

/** The node's own graphs. Data graphs (one per published object) are minted as urn:uuid IRIs. */
export const GRAPHS = {
  registry: 'urn:dataspace:graph:registry',
  metadata: 'urn:dataspace:graph:metadata',
  policies: 'urn:dataspace:graph:policies',
  activityLog: 'urn:dataspace:graph:activity-log',
  outbox: 'urn:dataspace:graph:outbox',
  /** The change journal the change feed answers from (src/core/changes/). */
  changes: 'urn:dataspace:graph:changes',
} as const;

export const svc = (local: string): string => `${SVC}${local}`;
export const unece = (local: string): string => `${UNECE}${local}`;
