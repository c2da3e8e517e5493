import { DataFactory } from 'n3';
import type { Quad, Quad_Object, Quad_Subject } from '@rdfjs/types';

/** A statement's object as written: an IRI, a blank node (`_:label`) or a literal, unescaped. */
export type ObjectTerm = { iri: string } | { blank: string } | { lexical: string; datatype?: string; language?: string };

/**
 * Called for each statement: its subject (an IRI, or `_:label` for a blank node: no IRI starts so),
 * predicate and object. Returning false stops the reading.
 */
export type StatementVisitor = (subject: string, predicate: string, object: ObjectTerm) => boolean;

// One statement: subject, predicate, then an IRI, a blank node or a literal. Terms apart by spaces or
// tabs, as the grammar allows: Oxigraph writes one space, Virtuoso a tab.
const STATEMENT =
  /^(<[^>]*>|_:[^\s]+)[ \t]+<([^>]*)>[ \t]+(?:<([^>]*)>|(_:[^\s]+)|"((?:[^"\\]|\\.)*)"(?:\^\^<([^>]*)>|@([A-Za-z0-9-]+))?)[ \t]*\.[ \t\r]*$/;
const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g;
const ECHAR: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', '"': '"', "'": "'", '\\': '\\' };

function unescape(text: string): string {
  if (!text.includes('\\')) return text;
  // JSON's string escapes are N-Triples' but for \' and \U: JSON.parse reads the common case natively
  // (a system event's JSON literal is all \" escapes: through the replace below, its callback ran for
  // each one); what JSON refuses, a raw control character included, goes the long way.
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return replaceEscapes(text);
  }
}

function replaceEscapes(text: string): string {
  return text.replace(ESCAPE, (whole, u4: string | undefined, u8: string | undefined, c: string | undefined) => {
    if (u4 || u8) return String.fromCodePoint(parseInt((u4 ?? u8)!, 16));
    const e = ECHAR[c!];
    if (e === undefined) throw new Error(`Bad N-Triples escape ${whole}`);
    return e;
  });
}

/**
 * Visits each non-empty line's statement. False when a line is not a statement it reads (a quoted
 * triple, a comment) or the visitor stopped.
 */
export function eachStatement(text: string, visit: StatementVisitor): boolean {
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const m = STATEMENT.exec(line);
    if (!m) return false;
    // The subject and predicate groups take part in every match, the lexical form whenever neither an
    // IRI nor a blank node is the object: the defaults are never used.
    const [, subject = '', predicate = '', iri, blank, lexical = '', datatype, language] = m;
    const object: ObjectTerm =
      iri !== undefined
        ? { iri: unescape(iri) }
        : blank !== undefined
          ? { blank }
          : { lexical: unescape(lexical), datatype: datatype === undefined ? undefined : unescape(datatype), language };
    if (!visit(subject.startsWith('<') ? unescape(subject.slice(1, -1)) : subject, unescape(predicate), object)) return false;
  }
  return true;
}

/**
 * A copy of each distinct string, made once: V8 keeps a substring (a regex capture) as a view of the
 * whole string it was cut from, so a term a cache keeps would keep the whole answer alive (metadata
 * answers were held through graph names kept as cache keys: bench/results/2026-12-07-comment-figures.md).
 */
function owner(): (text: string) => string {
  const copies = new Map<string, string>();
  return (text) => {
    // V8 copies substrings shorter than 13 characters anyway.
    if (text.length < 13) return text;
    let copy = copies.get(text);
    if (copy === undefined) copies.set(text, (copy = (' ' + text).slice(1)));
    return copy;
  };
}

/**
 * N-Triples text (a CONSTRUCT answered as application/n-triples) as RDF/JS triples in the default
 * graph, or undefined for text it does not read. Reading the text costs far less than Oxigraph's own
 * RDF/JS terms: each of those is a WebAssembly object with a finaliser, and each property read
 * (`value`, `subject`, …) is a call into the module that copies a string out. The terms hold their
 * own strings, not views of the text.
 */
export function triplesFromNTriples(text: string): Quad[] | undefined {
  const own = owner();
  const triples: Quad[] = [];
  const read = eachStatement(text, (subject, predicate, object) => {
    const o: Quad_Object =
      'iri' in object
        ? DataFactory.namedNode(own(object.iri))
        : 'blank' in object
          ? DataFactory.blankNode(own(object.blank.slice(2)))
          : DataFactory.literal(
              own(object.lexical),
              object.language ?? (object.datatype === undefined ? undefined : DataFactory.namedNode(own(object.datatype))),
            );
    const s: Quad_Subject = subject.startsWith('_:') ? DataFactory.blankNode(own(subject.slice(2))) : DataFactory.namedNode(own(subject));
    triples.push(DataFactory.quad(s, DataFactory.namedNode(own(predicate)), o));
    return true;
  });
  return read ? triples : undefined;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** The literals SPARQL TSV writes in Turtle's short forms (`22287` for "22287"^^xsd:integer), by datatype. */
const SHORT_FORMS: [RegExp, string][] = [
  [/^[+-]?\d+$/, 'integer'],
  [/^[+-]?\d*\.\d+$/, 'decimal'],
  [/^[+-]?(?:\d+\.\d*|\.\d+|\d+)[eE][+-]?\d+$/, 'double'],
  [/^(?:true|false)$/, 'boolean'],
];

const TSV_HEADER = '?s\t?p\t?o';

/** A TSV term as N-Triples writes it: a short form gets its datatype back, any other term is one already. */
function longForm(term: string): string {
  const first = term.charAt(0);
  if (first === '<' || first === '"' || first === '_') return term;
  for (const [form, datatype] of SHORT_FORMS) if (form.test(term)) return `"${term}"^^<${XSD}${datatype}>`;
  return term;
}

/**
 * The rows of a SELECT of ?s ?p ?o answered as SPARQL TSV (text/tab-separated-values) as RDF/JS triples,
 * or undefined for an answer it does not read (other columns, an unbound variable). Oxigraph answers
 * that SELECT for less than the CONSTRUCT of the same pattern, which builds a set of triples and
 * writes them as N-Triples (docs/performance.md). Its terms are N-Triples' but for the short forms of
 * numbers and booleans.
 * TSV from a server that writes every literal plainly (Virtuoso 7.2) loses datatypes: read only
 * Oxigraph's with it.
 */
export function triplesFromTsv(tsv: string): Quad[] | undefined {
  const end = tsv.indexOf('\n');
  if (end < 0) return tsv === TSV_HEADER ? [] : undefined;
  if (tsv.slice(0, end) !== TSV_HEADER) return undefined;
  let text = '';
  for (const row of tsv.slice(end + 1).split('\n')) {
    if (row.length === 0) continue;
    // The object is the last column: a term's own tabs are written escaped.
    const at = row.lastIndexOf('\t');
    if (at < 0) return undefined;
    text += `${row.slice(0, at)}\t${longForm(row.slice(at + 1))} .\n`;
  }
  return triplesFromNTriples(text);
}
