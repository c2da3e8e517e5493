import type { Term } from '@rdfjs/types';
import { DataFactory } from 'n3';

/**
 * Blank nodes are written to a SPARQL server as IRIs under this prefix and turned back into blank nodes
 * in every answer. Virtuoso refuses blank nodes in INSERT DATA, and its INSERT { … } WHERE {} turns a
 * string literal into an IRI when the same text is an IRI elsewhere in the template (7.2.5): a
 * consignment's globalId is both. Read views packed from a server's answer turn them back too.
 */
export const SKOLEM_PREFIX = 'urn:dataspace:bnode:';

export const unskolemised = <T extends Term>(term: T): T | Term =>
  term.termType === 'NamedNode' && term.value.startsWith(SKOLEM_PREFIX)
    ? DataFactory.blankNode(term.value.slice(SKOLEM_PREFIX.length))
    : term;
