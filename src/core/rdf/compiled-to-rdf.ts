import jsonld from 'jsonld';
import type { Quad } from '@rdfjs/types';
import { documentLoader, isBundledContext } from './document-loader.js';
import { XSD } from './namespaces.js';
import { nodeMap, toRdf, type Node, type Value } from './compiled-node-map.js';

/**
 * JSON-LD → RDF for the payloads the inbox receives, without running jsonld.js's general expansion
 * on every request: the bundled contexts are processed once by jsonld.js itself (its own active
 * context: term → IRI, type coercion, containers, prefixes), and a payload is then walked with those
 * term definitions. The quads are the ones jsonld.toRDF gives, in its order and with its blank node
 * labels: the walk keeps jsonld.js's three steps (expand with sorted keys, node map with sorted
 * properties and the same blank node issuer, quads by sorted subject and property), only for a
 * subset of JSON-LD.
 *
 * The subset (anything else answers `undefined`, and the caller runs jsonld.js, which then raises the
 * same events and errors as before):
 * - `@context` only as a bundled context URL or an array of them, on any node object;
 * - keys that are terms of the active context (or `@id`, `@type`, or their aliases), compact IRIs
 *   with a defined prefix, or absolute IRIs; no term with a container other than `@set`, a scoped
 *   context, `@reverse`, `@nest`, `@index`, a language or a direction;
 * - values that are strings (coerced by the term: `@id`, `@vocab` or a datatype IRI other than
 *   xsd:double; or plain), booleans, integers below 1e21, node objects, `{"@value": string}` and
 *   `{"@value": string, "@type": IRI}`, or arrays of those;
 * - every IRI absolute after expansion (no relative reference, no blank node identifier, no @vocab
 *   or @base prefixing), no empty object or array, no null, number or boolean.
 * test/unit/core/rdf/compiled-to-rdf.test.ts holds it to jsonld.toRDF on every fixture and on random
 * payloads built from the contexts' terms.
 */

/** jsonld.js's processed term definition, as far as it is read here. */
interface TermDefinition {
  '@id'?: string;
  '@type'?: string;
  '@container'?: string[];
  '@context'?: unknown;
  '@language'?: unknown;
  '@direction'?: unknown;
  '@nest'?: unknown;
  '@index'?: unknown;
  reverse?: boolean;
  _prefix?: boolean;
}

/** jsonld.js's active context, as far as it is read here. */
interface ActiveContext {
  mappings: Map<string, TermDefinition | null>;
  '@vocab'?: string;
  '@base'?: string;
  '@language'?: string;
  '@direction'?: string;
}

interface Context {
  key: string;
  active: ActiveContext;
}

/** Thrown inside the walk when the payload leaves the subset; the caller then uses jsonld.js. */
class Unsupported extends Error {
  constructor() {
    super('outside the compiled subset');
  }
}

/** Thrown inside the walk when a context stack is met that is not processed yet. */
class NeedsContext extends Error {
  constructor(
    readonly parent: Context,
    readonly value: string | string[],
    readonly key: string,
  ) {
    super('context not processed yet');
  }
}

const XSD_DOUBLE = `${XSD}double`;
// jsonld.js's test for an absolute IRI (lib/url.js isAbsolute); a blank node identifier passes it too.
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+-.]*|_):[^\s]*$/;
/** Processed context stacks kept; a payload needing more than this many distinct ones goes to jsonld.js. */
const MAX_CONTEXTS = 64;

const fail = (): never => {
  throw new Unsupported();
};

// jsonld.js's public processContext, which @types/jsonld does not declare.
const processContext = (
  jsonld as unknown as { processContext(active: unknown, local: unknown, options: unknown): Promise<ActiveContext> }
).processContext.bind(jsonld);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export class CompiledToRdf {
  private readonly contexts = new Map<string, Context>();
  private initial: Context | undefined;

  /** The payload's quads as jsonld.toRDF gives them, or undefined when the payload is outside the subset. */
  async toQuads(input: unknown): Promise<Quad[] | undefined> {
    this.initial ??= { key: '', active: await processContext(null, null, {}) };
    // Each context stack is processed once, the first time a payload needs it; the walk starts over.
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        return this.convert(input);
      } catch (error) {
        // Whatever else goes wrong in the walk (say a stack overflow on deep nesting), jsonld.js then
        // answers as it always did: the compiled path adds no failure of its own.
        if (!(error instanceof NeedsContext)) return undefined;
        if (this.contexts.size >= MAX_CONTEXTS) return undefined;
        try {
          const active = await processContext(error.parent.active, error.value, { documentLoader, base: '' });
          this.contexts.set(error.key, { key: error.key, active });
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  }

  private convert(input: unknown): Quad[] {
    if (!isObject(input)) fail();
    const root = this.expandNode(input as Record<string, unknown>, this.initial!);
    if (root.types.length === 0 && root.properties.size === 0) fail();
    return toRdf(nodeMap(root));
  }

  private withContext(parent: Context, value: unknown): Context {
    const urls = typeof value === 'string' ? [value] : Array.isArray(value) ? value : fail();
    if (urls.length === 0 || !urls.every((url) => typeof url === 'string' && isBundledContext(url))) fail();
    const key = `${parent.key}|${urls.join(' ')}`;
    const known = this.contexts.get(key);
    if (known) return known;
    throw new NeedsContext(parent, value as string | string[], key);
  }

  private expandNode(element: Record<string, unknown>, outer: Context): Node {
    const context = '@context' in element ? this.withContext(outer, element['@context']) : outer;
    const { active } = context;
    const node: Node = { types: [], properties: new Map() };
    let sawId = false;
    let sawType = false;
    // jsonld.js expands keys in sorted order; values of keys meeting on one IRI follow that order.
    for (const key of Object.keys(element).sort()) {
      if (key === '@context') continue;
      const definition = key.startsWith('@') ? undefined : termDefinition(active, key);
      const keyword = key.startsWith('@') ? key : definition?.['@id']?.startsWith('@') ? definition['@id'] : undefined;
      const value = element[key];
      if (keyword === '@id') {
        if (sawId || typeof value !== 'string') fail();
        sawId = true;
        node.id = absolute(expandIri(active, value as string, false));
      } else if (keyword === '@type') {
        if (sawType) fail();
        sawType = true;
        const types = typeof value === 'string' ? [value] : Array.isArray(value) && value.length > 0 ? value : fail();
        for (const type of types as unknown[]) {
          if (typeof type !== 'string') fail();
          // A type-scoped context would change the node's context: not in the subset.
          if (termDefinition(active, type as string)?.['@context'] !== undefined) fail();
          node.types.push(absolute(expandIri(active, type as string, true)));
        }
      } else if (keyword !== undefined) {
        fail();
      } else {
        // A term whose IRI is a blank node (an `@vocab` of "_:") is dropped by jsonld.js with an event.
        const iri = absolute(definition ? definition['@id']! : expandIri(active, key, true));
        const coercion = definition?.['@type'];
        const values = Array.isArray(value) ? value : [value];
        if (values.length === 0) fail();
        let list = node.properties.get(iri);
        if (!list) node.properties.set(iri, (list = []));
        for (const item of values) list.push(this.expandValue(item, coercion, context));
      }
    }
    return node;
  }

  private expandValue(item: unknown, coercion: string | undefined, context: Context): Node | Value {
    const { active } = context;
    // Integers below 1e21 only: jsonld.js writes other numbers in its double form (1.25E0).
    if (typeof item === 'boolean' || (typeof item === 'number' && Number.isInteger(item) && Math.abs(item) < 1e21)) {
      // jsonld.js's _expandValue: a datatype coercion applies; @id and @vocab do not (a typed boolean or number).
      if (coercion !== undefined && !coercion.startsWith('@')) return { value: item, type: checkedDatatype(coercion) };
      if (coercion !== undefined && coercion !== '@id' && coercion !== '@vocab') fail();
      return { value: item };
    }
    if (typeof item === 'string') {
      if (coercion === '@id') return { types: [], properties: new Map(), id: absolute(expandIri(active, item, false)) };
      if (coercion === '@vocab') return { types: [], properties: new Map(), id: absolute(expandIri(active, item, true)) };
      if (coercion !== undefined) return coercion.startsWith('@') ? fail() : { value: item, type: checkedDatatype(coercion) };
      if (active['@language'] !== undefined || active['@direction'] !== undefined) fail();
      return { value: item };
    }
    if (!isObject(item)) return fail();
    const keys = Object.keys(item);
    if (keys.includes('@value')) {
      const value = item['@value'];
      if (typeof value !== 'string') fail();
      if (keys.length === 1) return { value: value as string };
      const type = item['@type'];
      if (keys.length !== 2 || typeof type !== 'string') fail();
      return { value: value as string, type: checkedDatatype(absolute(expandIri(active, type as string, true))) };
    }
    // Any other keyword or keyword alias (@list, @set, @graph, @value by another name, ...) leaves the subset.
    const node = this.expandNode(item, context);
    if (node.id === undefined && node.types.length === 0 && node.properties.size === 0) fail();
    return node;
  }
}

/** A term's definition when it is one the walk follows; fails for definitions outside the subset. */
function termDefinition(active: ActiveContext, term: string): TermDefinition | undefined {
  const definition = active.mappings.get(term);
  if (definition === undefined) return undefined;
  if (definition === null || typeof definition['@id'] !== 'string') return fail();
  if (definition.reverse || definition['@context'] !== undefined || definition['@nest'] !== undefined || definition['@index'] !== undefined)
    fail();
  if ('@language' in definition || '@direction' in definition) fail();
  const container = definition['@container'];
  if (container !== undefined && !(container.length === 1 && container[0] === '@set')) fail();
  return definition;
}

/** jsonld.js's _expandIri for the cases in the subset: a term (vocab), a compact IRI with a prefix, an absolute IRI. */
function expandIri(active: ActiveContext, value: string, vocab: boolean): string {
  if (value.startsWith('@')) fail();
  if (vocab) {
    const definition = active.mappings.get(value);
    if (definition === null) return fail();
    if (definition !== undefined) return definition['@id'] ?? fail();
  }
  const colon = value.indexOf(':');
  if (colon > 0) {
    const prefix = value.slice(0, colon);
    const suffix = value.slice(colon + 1);
    if (prefix === '_') fail();
    if (suffix.startsWith('//')) return value;
    const mapping = active.mappings.get(prefix);
    if (mapping && mapping._prefix) return mapping['@id'] + suffix;
    if (ABSOLUTE.test(value)) return value;
  }
  // Relative to @vocab or @base: jsonld.js may prefix it or report it; either way not in the subset.
  return fail();
}

/** jsonld.js rewrites an xsd:double literal (1.39E1 for "13.9"): that one is left to it. */
function checkedDatatype(iri: string): string {
  if (iri === XSD_DOUBLE) fail();
  return iri;
}

/** An expanded IRI the walk accepts: absolute, not a keyword, not a blank node identifier. */
function absolute(iri: string): string {
  if (iri.startsWith('@') || iri.startsWith('_:') || !ABSOLUTE.test(iri)) fail();
  return iri;
}
