import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sparqlDir } from '../project-paths.js';
import { iriToString, literalToString } from '../rdf/terms.js';
import { XSD } from '../rdf/namespaces.js';

/** A value bound into a query: an IRI, a typed/plain literal, or a list of either (for VALUES). */
export type Bound =
  | { iri: string }
  | { literal: string; datatype?: string; language?: string }
  | { integer: number }
  | { list: Bound[] };

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

/**
 * Queries are `.rq` files in which `$name` variables are parameters. Binding replaces each with one
 * serialised RDF term (or a space-separated list of terms inside a VALUES block), never with raw text.
 */
export class QueryBank {
  private readonly queries = new Map<string, string>();

  constructor(dir: string = sparqlDir) {
    this.loadDir(dir, dir);
  }

  private loadDir(root: string, dir: string): void {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) this.loadDir(root, path);
      else if (entry.endsWith('.rq')) {
        this.queries.set(relative(root, path).replace(/\\/g, '/').replace(/\.rq$/, ''), readFileSync(path, 'utf8'));
      }
    }
  }

  text(name: string): string {
    const query = this.queries.get(name);
    if (query === undefined) throw new Error(`No query sparql/${name}.rq`);
    return query;
  }

  bind(name: string, bindings: Record<string, Bound> = {}): string {
    const query = this.text(name);
    return query.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, variable: string) => {
      const value = bindings[variable];
      if (value === undefined) throw new Error(`sparql/${name}.rq: no value bound for $${variable}`);
      return render(value);
    });
  }
}
