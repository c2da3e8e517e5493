import n3 from 'n3';
import type { Quad, Term } from '@rdfjs/types';
import { QuadIndex } from '../rdf/quad-index.js';
import { svc, unece, XSD } from '../rdf/namespaces.js';
import { isObject } from '../util/json.js';

const { DataFactory } = n3;

/**
 * RDF keeps no order among the values of a property, and JSON-LD compaction turns a one-item array
 * into an object. So each node object sent as an item of a JSON array is stored with its 0-based
 * place, `svc:position` (xsd:integer): read views give such fields back as arrays in that order, and
 * a SPARQL user sorts with `?item svc:position ?n } ORDER BY ?n`. Literal arrays and named (@id)
 * items carry no position: a literal cannot, and a named node may sit in several arrays.
 */
export const POSITION = svc('position');
const POSITION_KEYS = new Set([POSITION, 'svc:position']);

/** The activity with the position of every array item inside its object written in (a copy). */
export function withPositions(activity: unknown): unknown {
  if (!isObject(activity) || !isObject(activity.object)) return activity;
  return { ...activity, object: walk(activity.object) };
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (POSITION_KEYS.has(key)) continue; // the node writes positions; a sent one would contradict them
    if (key.startsWith('@') || !Array.isArray(v)) {
      out[key] = key === '@context' || key === '@value' ? v : walk(v);
      continue;
    }
    out[key] = v.map((item, i) => (isItemNode(item) ? { ...(walk(item) as Record<string, unknown>), [POSITION]: i } : walk(item)));
  }
  return out;
}

function isItemNode(item: unknown): item is Record<string, unknown> {
  return isObject(item) && !('@value' in item) && !('@list' in item) && !('@set' in item) && !('@id' in item) && !('id' in item);
}

/**
 * Spec 4.2 sends includedConsignment on Update as the complete list. Items matched (by identifier)
 * keep the place they had; new ones follow, in the order sent. Returns the quads with the items'
 * positions rewritten accordingly.
 */
export function keepItemPlaces(quads: Quad[], root: Term, stored: Quad[], storedRoot: Term): Quad[] {
  const before = itemIdentifiers(new QuadIndex(stored), storedRoot);
  const index = new QuadIndex(quads);
  const sent = itemsInOrder(index, root);
  const places = new Map<string, number>();
  let next = before.length;
  for (const item of sent) {
    const identifier = literal(index, item, unece('identifier'));
    const old = identifier === undefined ? -1 : before.indexOf(identifier);
    places.set(key(item), old >= 0 ? old : next++);
  }
  return quads.map((q) => {
    const place = q.predicate.value === POSITION ? places.get(key(q.subject)) : undefined;
    return place === undefined
      ? q
      : DataFactory.quad(q.subject, q.predicate, DataFactory.literal(String(place), DataFactory.namedNode(`${XSD}integer`)), q.graph);
  });
}

/** The identifiers of a consignment's stored items, in their stored order. */
function itemIdentifiers(index: QuadIndex, root: Term): string[] {
  return itemsInOrder(index, root).map((item) => literal(index, item, unece('identifier')) ?? '');
}

function itemsInOrder(index: QuadIndex, root: Term): Term[] {
  const items = index.objects(root, unece('includedConsignment'));
  const at = (t: Term) => Number(literal(index, t, POSITION) ?? Number.MAX_SAFE_INTEGER);
  return items
    .map((t, i) => ({ t, p: at(t), i }))
    .sort((a, b) => a.p - b.p || a.i - b.i)
    .map((x) => x.t);
}

function literal(index: QuadIndex, node: Term, predicate: string): string | undefined {
  const value = index.object(node, predicate);
  return value?.termType === 'Literal' ? value.value : undefined;
}

const key = (t: Term): string => `${t.termType}:${t.value}`;
