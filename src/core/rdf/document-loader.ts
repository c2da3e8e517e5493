import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextsDir } from '../project-paths.js';
import { ACTIVITYSTREAMS_CONTEXT_URL, D23B_CONTEXT_URL } from './namespaces.js';

export interface RemoteDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
  tag?: 'static';
}

export class ContextNotBundledError extends Error {
  override readonly name = 'ContextNotBundledError';
  constructor(readonly url: string) {
    super(`JSON-LD context ${url} is not bundled with this node; only the D23B and ActivityStreams contexts are accepted`);
  }
}

function readContext(file: string): { '@context': unknown } {
  return JSON.parse(readFileSync(join(contextsDir, file), 'utf8')) as { '@context': unknown };
}

/**
 * The D23B release context lacks terms the interface uses (consignor, consignee, UNLocode, ...).
 * Payloads cite only the D23B URL, so that URL resolves to the release context followed by our
 * service context; the terms then expand instead of being dropped.
 */
function buildContexts(): Map<string, unknown> {
  const d23b = readContext('unece-context-D23B.jsonld')['@context'];
  const service = readContext('dataspace-service.jsonld')['@context'];
  const activityStreams = readContext('activitystreams.jsonld');
  const unlocode = readContext('unlocode-vocab-context.jsonld');
  const d23bWithService = { '@context': [d23b, service] };
  return new Map<string, unknown>([
    [D23B_CONTEXT_URL, d23bWithService],
    ['https://vocabulary.uncefact.org/D23B/unece-context.jsonld', d23bWithService],
    ['http://vocabulary.uncefact.org/unece-context-D23B.jsonld', d23bWithService],
    [ACTIVITYSTREAMS_CONTEXT_URL, activityStreams],
    ['https://www.w3.org/ns/activitystreams.jsonld', activityStreams],
    ['http://www.w3.org/ns/activitystreams', activityStreams],
    ['http://www.w3.org/ns/activitystreams.jsonld', activityStreams],
    ['https://vocabulary.uncefact.org/unlocode-vocab-context.jsonld', unlocode],
  ]);
}

const bundled = buildContexts();

/** Where the node serves its bundled contexts (src/adapters/http/routes/contexts.ts), under their file names. */
export const CONTEXTS_PATH = '/contexts';

/**
 * The contexts the node serves, by file name: each as the node reads it. The D23B one is the release
 * followed by the service terms, the context every compacted JSON-LD answer names at the node.
 */
export const SERVED_CONTEXTS: ReadonlyMap<string, unknown> = new Map([
  ['unece-context-D23B.jsonld', bundled.get(D23B_CONTEXT_URL)],
  ['activitystreams.jsonld', bundled.get(ACTIVITYSTREAMS_CONTEXT_URL)],
  ['unlocode-vocab-context.jsonld', bundled.get('https://vocabulary.uncefact.org/unlocode-vocab-context.jsonld')],
  ['dataspace-service.jsonld', readContext('dataspace-service.jsonld')],
  ['dataspace-changes.jsonld', readContext('dataspace-changes.jsonld')],
]);

/** The URL of the change feed's own terms (change, cursor, typeCode, ...) under a base URL, beside ActivityStreams. */
export const servedChangesContext = (baseUrl: string): string => `${baseUrl}${CONTEXTS_PATH}/dataspace-changes.jsonld`;

/** The URL of the node's D23B context (release and service terms) under a base URL. */
export const servedD23bContext = (baseUrl: string): string => `${baseUrl}${CONTEXTS_PATH}/unece-context-D23B.jsonld`;

/** The merged D23B + service context object, for compacting read views. */
export function d23bContext(): unknown {
  return (bundled.get(D23B_CONTEXT_URL) as { '@context': unknown })['@context'];
}

/** The service context alone, for documents that cite D23B by URL and must still expand anywhere. */
export function serviceContext(): unknown {
  return readContext('dataspace-service.jsonld')['@context'];
}

export function isBundledContext(url: string): boolean {
  return bundled.has(url);
}

/** A jsonld.js document loader that serves bundled contexts and refuses everything else. */
export async function documentLoader(url: string): Promise<RemoteDocument> {
  const document = bundled.get(url);
  if (document === undefined) throw new ContextNotBundledError(url);
  // 'static' lets jsonld.js cache the processed context across calls.
  return { contextUrl: null, documentUrl: url, document, tag: 'static' };
}
