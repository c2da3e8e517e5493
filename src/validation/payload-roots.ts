import type { DatasetCore, NamedNode, Quad, Term } from '@rdfjs/types';
import n3 from 'n3';
import { AS, RDF_TYPE, UNECE } from '../rdf/namespaces.js';
import { DSH } from './readable.js';

const namedNode = (iri: string): NamedNode => n3.DataFactory.namedNode(iri);

export const SHAPES = {
  publishedConsignment: namedNode(`${DSH}PublishedConsignmentShape`),
  event: namedNode(`${DSH}EventShape`),
  document: namedNode(`${DSH}DocumentShape`),
} as const;

/** A root SHACL targets cannot reach: a node and the shapes it must meet. (Everything else is
 * reached by the shapes' own targets.) */
export interface Dispatch {
  focus: Term;
  shapes: NamedNode[];
}

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
  dispatches: Dispatch[];
  problems: StructureProblem[];
}

const ACTIVITY_TYPES = new Set([`${AS}Create`, `${AS}Update`, `${AS}Add`]);
const CONSIGNMENT = `${UNECE}Consignment`;
const EVENT = `${UNECE}SupplyChainEvent`;
const DOCUMENT = `${UNECE}Document`;
const DOCUMENT_FIELDS = ['documentTypeCode', 'uRIId', 'versionId', 'issueDateTime'].map((l) => `${UNECE}${l}`);
const EVENT_FIELDS = ['typeCode', 'occurrenceDateTime', 'occurrenceLocation'].map((l) => `${UNECE}${l}`);

function termId(term: Term): string {
  return `${term.termType}:${term.value}`;
}

function typesOf(dataset: DatasetCore, node: Term): Set<string> {
  const types = new Set<string>();
  for (const q of dataset.match(node as Quad['subject'], namedNode(RDF_TYPE), null)) types.add(q.object.value);
  return types;
}

function hasAny(dataset: DatasetCore, node: Term, predicates: string[]): boolean {
  return predicates.some((p) => dataset.match(node as Quad['subject'], namedNode(p), null).size > 0);
}

/** The shape for a bare object or the object of an Add, by its type; untyped ones by their fields
 * (the interface does not require `type` on consignments and events). */
function objectShape(dataset: DatasetCore, node: Term, allowConsignment: boolean): NamedNode | undefined {
  const types = typesOf(dataset, node);
  if (types.has(DOCUMENT)) return SHAPES.document;
  if (types.has(EVENT)) return SHAPES.event;
  if (types.has(CONSIGNMENT)) return allowConsignment ? SHAPES.publishedConsignment : undefined;
  if (types.size > 0) return undefined;
  if (hasAny(dataset, node, DOCUMENT_FIELDS)) return SHAPES.document;
  if (!allowConsignment || hasAny(dataset, node, EVENT_FIELDS)) return SHAPES.event;
  return SHAPES.publishedConsignment;
}

/**
 * Finds what the payload is (one activity, or one bare Consignment / SupplyChainEvent / Document)
 * and which shapes apply where. Everything else about the payload's shape is left to SHACL.
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
    problems.push({ focus: null, path: null, message: 'The payload has no data: send an activity or a Consignment, SupplyChainEvent or Document', value: null });
    return { root: null, isActivity: false, dispatches: [], problems };
  }

  const activities = new Map<string, Term>();
  for (const q of dataset.match(null, namedNode(RDF_TYPE), null)) {
    if (ACTIVITY_TYPES.has(q.object.value)) activities.set(termId(q.subject), q.subject);
  }
  let root: Term;
  const dispatches: Dispatch[] = [];
  if (activities.size > 1) {
    problems.push({ focus: null, path: null, message: `The payload holds ${activities.size} activities; send one activity per request`, value: null });
    return { root: null, isActivity: true, dispatches, problems };
  }
  if (activities.size === 1) {
    root = [...activities.values()][0]!;
    // The activity shapes target the activity by class; only an Add's object needs dispatching.
    if (typesOf(dataset, root).has(`${AS}Add`)) {
      for (const q of dataset.match(root as Quad['subject'], namedNode(`${AS}object`), null)) {
        if (q.object.termType === 'Literal') continue;
        const shape = objectShape(dataset, q.object, false);
        if (shape) dispatches.push({ focus: q.object, shapes: [shape] });
      }
    }
  } else {
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
      return { root: null, isActivity: false, dispatches, problems };
    }
    root = [...tops.values()][0]!;
    const shape = objectShape(dataset, root, true);
    if (!shape) {
      problems.push({
        focus: root,
        path: 'type',
        message: 'A payload is an activity (Create, Update, Add) or a bare Consignment, SupplyChainEvent or Document',
        value: [...dataset.match(root as Quad['subject'], namedNode(RDF_TYPE), null)][0]?.object ?? null,
      });
    } else {
      dispatches.push({ focus: root, shapes: [shape] });
    }
  }

  return { root, isActivity: activities.size === 1, dispatches, problems };
}

/** Subjects not reachable from the root: data that would be stored but belongs to nothing
 * (`@included`, a second top-level object in `@graph`). */
export function detachedProblems(dataset: DatasetCore, reachable: (node: Term) => boolean): StructureProblem[] {
  const lost = new Map<string, Term>();
  for (const q of dataset) if (!reachable(q.subject)) lost.set(termId(q.subject), q.subject);
  return [...lost.values()].map((node) => ({
    focus: node,
    path: null,
    message: 'This object is not part of the payload tree (it comes from @included, @graph or @reverse); nest it under the field it belongs to',
    value: null,
  }));
}
