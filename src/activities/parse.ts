import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { ContextNotBundledError, documentLoader } from '../rdf/document-loader.js';
import { Unprocessable } from '../http/errors.js';

export interface DroppedTerm {
  code: string;
  term?: string;
  message: string;
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
  return { code: event.code, term: named, message: event.message };
}

function findContextError(error: unknown): ContextNotBundledError | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof ContextNotBundledError) return e;
    const inner = e as { cause?: unknown; details?: { cause?: unknown } };
    e = inner.details?.cause ?? inner.cause;
  }
  return undefined;
}

/**
 * JSON-LD → RDF quads against the bundled contexts only. Every event jsonld.js raises while
 * expanding (an undefined term, a relative IRI, an empty object, ...) means data would be lost,
 * so it is reported as a 422 naming the terms instead of being dropped silently.
 */
export async function toQuads(json: unknown): Promise<Quad[]> {
  const events: DroppedTerm[] = [];
  let quads: Quad[];
  try {
    quads = (await jsonld.toRDF(json as jsonld.JsonLdDocument, {
      documentLoader: documentLoader as never,
      eventHandler: ({ event }: { event: JsonLdEvent }) => {
        events.push(describe(event));
      },
    } as never)) as unknown as Quad[];
  } catch (error) {
    const missing = findContextError(error);
    if (missing) {
      throw new Unprocessable(missing.message, { context: missing.url });
    }
    const e = error as { name?: string; message?: string; details?: { code?: string } };
    throw new Unprocessable(`The payload is not valid JSON-LD: ${e.message ?? String(error)}`, {
      code: e.details?.code ?? e.name ?? 'jsonld error',
    });
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
