import type { DatasetCore, NamedNode, Quad, Term } from '@rdfjs/types';
import n3 from 'n3';
import { AS, RDF_TYPE, UNECE } from '../rdf/namespaces.js';
import { DSH } from './readable.js';

const namedNode = (iri: string): NamedNode => n3.DataFactory.namedNode(iri);

/** The shapes of the payload's own object. The rules of shapes/payload-roots.ttl apply them through
 * sh:or; when such a rule fails, the validator reports this shape's own results. */
export const OBJECT_SHAPES: readonly NamedNode[] = ['PublishedConsignmentShape', 'EventShape', 'EventTypeCodeShape', 'DocumentShape'].map(
  (name) => namedNode(`${DSH}${name}`),
);

/** A problem with the payload as a whole, found before any shape applies. */
export interface StructureProblem {
  focus: Term | null;
  path: string | null;
  message: string;
  value: Term | null;
}

export interface Roots {
  /** The node every path is read from (the activity, or the bare object). */
  root: Term | null;
  /** True when the root is an activity: paths are then read from its object. */
  isActivity: boolean;
  problems: StructureProblem[];
}

const ACTIVITY_TYPES = new Set([`${AS}Create`, `${AS}Update`, `${AS}Add`]);
/** What a payload without an activity may be. */
const BARE_TYPES = ['Consignment', 'SupplyChainEvent', 'Document'].map((t) => `${UNECE}${t}`);

function termId(term: Term): string {
  return `${term.termType}:${term.value}`;
}

function typesOf(dataset: DatasetCore, node: Term): Set<string> {
  const types = new Set<string>();
  for (const q of dataset.match(node, namedNode(RDF_TYPE), null)) types.add(q.object.value);
  return types;
}

/**
 * Finds what the payload is (one activity, or one bare Consignment / SupplyChainEvent / Document) and
 * the problems with its structure that SHACL cannot state (one tree under one root). Which shapes
 * apply where is left to the shapes' own targets (shapes/payload-roots.ttl for the payload's object).
 */
export function findRoots(dataset: DatasetCore, namedGraphQuads: Quad[]): Roots {
  const problems: StructureProblem[] = [];
  const graphs = new Map(namedGraphQuads.map((q) => [termId(q.graph), q.graph]));
  for (const graph of graphs.values()) {
    problems.push({
      focus: graph,
      path: null,
      message: 'The payload contains a named graph (@graph inside an object with an @id); send one object tree without @graph',
      value: null,
    });
  }
  if (dataset.size === 0) {
    problems.push({
      focus: null,
      path: null,
      message: 'The payload has no data: send an activity or a Consignment, SupplyChainEvent or Document',
      value: null,
    });
    return { root: null, isActivity: false, problems };
  }

  const activities = new Map<string, Term>();
  for (const q of dataset.match(null, namedNode(RDF_TYPE), null)) {
    if (ACTIVITY_TYPES.has(q.object.value)) activities.set(termId(q.subject), q.subject);
  }
  if (activities.size > 1) {
    problems.push({
      focus: null,
      path: null,
      message: `The payload holds ${activities.size} activities; send one activity per request`,
      value: null,
    });
    return { root: null, isActivity: true, problems };
  }
  if (activities.size === 1) return { root: [...activities.values()][0]!, isActivity: true, problems };

  const objects = new Set<string>();
  for (const q of dataset) objects.add(termId(q.object));
  const tops = new Map<string, Term>();
  for (const q of dataset) if (!objects.has(termId(q.subject))) tops.set(termId(q.subject), q.subject);
  if (tops.size !== 1) {
    problems.push({
      focus: null,
      path: null,
      message:
        tops.size === 0
          ? 'The payload has no top-level object (its objects refer to each other in a cycle)'
          : `The payload has ${tops.size} top-level objects (from @graph, @included or @reverse); send one activity, or one Consignment, SupplyChainEvent or Document`,
      value: null,
    });
    return { root: null, isActivity: false, problems };
  }
  const root = [...tops.values()][0]!;
  const types = typesOf(dataset, root);
  if (types.size > 0 && !BARE_TYPES.some((t) => types.has(t))) {
    problems.push({
      focus: root,
      path: 'type',
      message: 'A payload is an activity (Create, Update, Add) or a bare Consignment, SupplyChainEvent or Document',
      value: [...dataset.match(root, namedNode(RDF_TYPE), null)][0]?.object ?? null,
    });
  }
  return { root, isActivity: false, problems };
}

/** Subjects not reachable from the root: data that would be stored but belongs to nothing
 * (`@included`, a second top-level object in `@graph`). */
export function detachedProblems(dataset: DatasetCore, reachable: (node: Term) => boolean): StructureProblem[] {
  const lost = new Map<string, Term>();
  for (const q of dataset) if (!reachable(q.subject)) lost.set(termId(q.subject), q.subject);
  return [...lost.values()].map((node) => ({
    focus: node,
    path: null,
    message:
      'This object is not part of the payload tree (it comes from @included, @graph or @reverse); nest it under the field it belongs to',
    value: null,
  }));
}
