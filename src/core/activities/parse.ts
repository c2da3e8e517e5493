import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { ContextNotBundledError, documentLoader } from '../rdf/document-loader.js';
import { CompiledToRdf } from '../rdf/compiled-to-rdf.js';
import { ACTIVITYSTREAMS_CONTEXT_URL, D23B_CONTEXT_URL } from '../rdf/namespaces.js';
import { Unprocessable } from '../errors.js';
import { checkContextEntries } from './context-rules.js';
import { checkStringFields } from './field-types.js';
import { refuseUndefinedTypes } from './undefined-types.js';

export interface DroppedTerm {
  code: string;
  term?: string;
  message: string;
  /** The value concerned, for a relative object reference. */
  value?: string;
}

interface JsonLdEvent {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

function describe(event: JsonLdEvent): DroppedTerm {
  const d = event.details ?? {};
  const term = (d.property ?? d.term ?? d.iri ?? d.id ?? d.type) as string | undefined;
  const named = typeof term === 'string' ? term.replace(/^_:/, '') : undefined;
  const value = typeof d.object === 'string' ? d.object : undefined;
  return { code: event.code, term: event.code === 'relative object reference' ? undefined : named, message: event.message, value };
}

// An absolute IRI with at most one fragment and none of the characters N-Quads forbids: jsonld.js
// lets some invalid IRIs through without an event, and the store would then refuse the whole write.
const VALID_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\u0000-\u0020<>"{}|^`\\#]*(#[^\u0000-\u0020<>"{}|^`\\#]*)?$/;

function invalidIris(quads: Quad[]): string[] {
  const bad = new Set<string>();
  const check = (term: Quad['subject'] | Quad['object'] | Quad['graph'] | Quad['predicate']) => {
    if (term.termType === 'NamedNode' && !VALID_IRI.test(term.value)) bad.add(term.value);
    if (term.termType === 'Literal' && !VALID_IRI.test(term.datatype.value)) bad.add(term.datatype.value);
  };
  for (const q of quads) {
    check(q.subject);
    check(q.predicate);
    check(q.object);
    check(q.graph);
  }
  return [...bad];
}

/**
 * Spec 2.1: an activity's `generator` is a plain string (the sender's node name) that the node
 * ignores. ActivityStreams types `generator` as a link, so a plain name would expand to a relative
 * IRI and be refused; it is set aside before expansion instead.
 */
function withoutGenerator(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json;
  const { generator, ...rest } = json as Record<string, unknown>;
  return typeof generator === 'string' ? rest : json;
}

/** jsonld.js joins an array of types on a value object into one datatype instead of refusing it. */
function multiTypedValue(json: unknown): boolean {
  const stack = [json];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (!Array.isArray(value) && '@value' in value && Array.isArray((value as Record<string, unknown>)['@type'])) return true;
    stack.push(...(Array.isArray(value) ? value : Object.values(value)));
  }
  return false;
}

/** One per thread: it keeps the bundled contexts as jsonld.js processed them. */
const compiled = new CompiledToRdf();

/**
 * Processes the bundled contexts in the order an activity cites them (ActivityStreams, then D23B on
 * its object), so the first payload does not pay for it (the D23B context is large: figures in
 * bench/results/2026-12-08-comment-figures.md).
 */
export async function warmUp(): Promise<void> {
  await toQuads({
    '@context': ACTIVITYSTREAMS_CONTEXT_URL,
    type: 'Create',
    object: { '@context': D23B_CONTEXT_URL, type: 'Consignment', identifier: 'warm-up' },
  });
}

/**
 * JSON-LD → RDF quads against the bundled contexts only. Every event jsonld.js raises while
 * expanding (an undefined term, a relative IRI, an empty object, ...) means data would be lost,
 * so it is reported as a 422 naming the terms instead of being dropped silently.
 */
export async function toQuads(input: unknown, options: { compiled?: boolean } = {}): Promise<Quad[]> {
  const json = withoutGenerator(input);
  // JSON-level rules first: a refused context is never loaded, a number never becomes a literal.
  checkContextEntries(json);
  checkStringFields(json);
  if (multiTypedValue(json)) {
    throw new Unprocessable('A value object has several @type values; a literal has exactly one datatype', { code: 'invalid typed value' });
  }
  // Payloads within the compiled subset (src/core/rdf/compiled-to-rdf.ts) skip jsonld.js: the same quads,
  // and nothing in that subset raises an event. Everything else goes through jsonld.js below.
  const fast = options.compiled === false ? undefined : await compiled.toQuads(json);
  const quads = fast ?? (await expandWithJsonld(json));
  await refuseUndefinedTypes(json, quads);
  const iris = invalidIris(quads);
  if (iris.length > 0) {
    throw new Unprocessable(`These values are not valid absolute IRIs: ${iris.map((i) => JSON.stringify(i)).join(', ')}`, {
      invalidIris: iris,
    });
  }
  return quads;
}

/** jsonld.toRDF with the bundled contexts; every event it raises refuses the payload (422). */
async function expandWithJsonld(json: unknown): Promise<Quad[]> {
  const events: DroppedTerm[] = [];
  // jsonld.js sometimes swallows the loader's error (e.g. for a property-scoped context), so the
  // refused URLs are recorded here to name them whatever error comes back.
  const refused: string[] = [];
  const loader = async (url: string) => {
    try {
      return await documentLoader(url);
    } catch (error) {
      if (error instanceof ContextNotBundledError) refused.push(url);
      throw error;
    }
  };
  let quads: Quad[];
  try {
    quads = (await jsonld.toRDF(
      json as jsonld.JsonLdDocument,
      {
        documentLoader: loader as never,
        eventHandler: ({ event }: { event: JsonLdEvent }) => {
          events.push(describe(event));
        },
      } as never,
    )) as unknown as Quad[];
  } catch (error) {
    const [context] = refused;
    if (context !== undefined) throw new Unprocessable(new ContextNotBundledError(context).message, { context });
    const e = error as { name?: string; message?: string; details?: { code?: string } };
    throw new Unprocessable(`The payload is not valid JSON-LD: ${e.message ?? String(error)}`, {
      code: e.details?.code ?? e.name ?? 'jsonld error',
    });
  }
  const relative = events.filter((e) => e.code === 'relative object reference');
  if (relative.length > 0 && relative.length === events.length) {
    const values = [...new Set(relative.map((e) => e.value).filter((v): v is string => v !== undefined))];
    throw new Unprocessable(
      `These values are not absolute IRIs nor codes in a form their field accepts (write e.g. unece:CountryId#GB): ${values.map((v) => JSON.stringify(v)).join(', ')}`,
      { invalidValues: values, events },
    );
  }
  if (events.length > 0) {
    const terms = [...new Set(events.map((e) => e.term).filter((t): t is string => t !== undefined))];
    throw new Unprocessable(
      terms.length > 0
        ? `These terms are not defined by the bundled contexts and would be lost: ${terms.join(', ')}`
        : `The payload would lose data when expanded: ${events.map((e) => e.message).join('; ')}`,
      { droppedTerms: terms, events },
    );
  }
  return quads;
}
