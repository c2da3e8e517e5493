import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sparqlDir } from '../project-paths.js';
import { iriToString, literalToString } from '../rdf/terms.js';
import { XSD } from '../rdf/namespaces.js';

/** A value bound into a query: an IRI, a typed/plain literal, or a list of either (for VALUES). */
export type Bound = { iri: string } | { literal: string; datatype?: string; language?: string } | { integer: number } | { list: Bound[] };

export const iri = (value: string): Bound => ({ iri: value });
export const str = (value: string): Bound => ({ literal: value });
export const int = (value: number): Bound => ({ integer: value });
export const dateTime = (value: string): Bound => ({ literal: value, datatype: `${XSD}dateTime` });
export const list = (values: Bound[]): Bound => ({ list: values });

function render(value: Bound): string {
  if ('iri' in value) return iriToString(value.iri);
  if ('integer' in value) {
    if (!Number.isSafeInteger(value.integer)) throw new Error(`Not an integer: ${value.integer}`);
    return String(value.integer);
  }
  if ('list' in value) return value.list.map(render).join(' ');
  return literalToString(value.literal, value.datatype, value.language);
}

/** `# include: policy/coverage-check` on a line of its own: the fragment's text goes there. */
const INCLUDE = /^[ \t]*# include: ([A-Za-z0-9_/-]+)[ \t]*$/gm;

/**
 * Queries are `.rq` files in which `$name` variables are parameters. Binding replaces each with one
 * serialised RDF term (or a space-separated list of terms inside a VALUES block), never with raw text.
 *
 * A text several queries share (the data-sharing rule, docs/policies.md) is a `.rq-fragment` file that
 * each of them includes by name; includes are resolved once, when the bank loads, so `text()` and
 * `bind()` give the whole query and a query naming a missing fragment stops the node at start.
 */
export class QueryBank {
  private readonly queries = new Map<string, string>();
  private readonly fragments = new Map<string, string>();

  constructor(dir: string = sparqlDir) {
    this.loadDir(dir, dir);
    for (const [name, text] of this.queries) this.queries.set(name, this.expand(name, text));
  }

  private loadDir(root: string, dir: string): void {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      const name = relative(root, path).replace(/\\/g, '/');
      if (statSync(path).isDirectory()) this.loadDir(root, path);
      else if (entry.endsWith('.rq')) this.queries.set(name.replace(/\.rq$/, ''), readFileSync(path, 'utf8'));
      else if (entry.endsWith('.rq-fragment')) this.fragments.set(name.replace(/\.rq-fragment$/, ''), readFileSync(path, 'utf8'));
    }
  }

  private expand(name: string, text: string): string {
    return text.replace(INCLUDE, (_line, fragment: string) => {
      const body = this.fragments.get(fragment);
      if (body === undefined) throw new Error(`sparql/${name}.rq includes ${fragment}, but there is no sparql/${fragment}.rq-fragment`);
      // One level only: a fragment that includes another would hide where a query's text comes from.
      if (new RegExp(INCLUDE.source, 'm').test(body))
        throw new Error(`sparql/${fragment}.rq-fragment includes another fragment; fragments are included only by queries`);
      return body.endsWith('\n') ? body.slice(0, -1) : body;
    });
  }

  text(name: string): string {
    const query = this.queries.get(name);
    if (query === undefined) throw new Error(`No query sparql/${name}.rq`);
    return query;
  }

  bind(name: string, bindings: Record<string, Bound> = {}): string {
    const query = this.text(name);
    return query.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, variable: string) => {
      const value = bindings[variable];
      if (value === undefined) throw new Error(`sparql/${name}.rq: no value bound for $${variable}`);
      return render(value);
    });
  }
}
