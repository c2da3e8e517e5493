import type { ConsignmentCatalog } from '../ports/consignment-catalog.js';
import { canonicalGlobalId } from '../catalog/identities.js';
import { Unprocessable } from '../errors.js';
import { unece } from '../rdf/namespaces.js';
import { walkEntries } from '../util/json.js';
import type { ValidationResult } from '../validation/types.js';
import type { ActivityGraph } from './activity-graph.js';

const GLOBAL_ID = unece('globalId');

/**
 * Items are owned like consignments: a node inside a payload (an `includedConsignment` item, any
 * nested node) may not carry the globalId of a consignment, the payload's own or another's, in any
 * case. Taken, "the consignment with globalId X" in every reader's SPARQL would answer the forged
 * item beside the real one. Refused with 422 naming where it sits in the JSON, decided under the
 * ingest lock so no Create of that globalId can come between the check and the commit.
 */
export async function checkItemGlobalIds(graph: ActivityGraph, records: ConsignmentCatalog, body: unknown): Promise<void> {
  const own = graph.text(graph.object, 'globalId');
  const named = new Set<string>();
  for (const q of graph.objectQuads()) {
    if (q.predicate.value !== GLOBAL_ID || q.object.termType !== 'Literal') continue;
    if (graph.object && q.subject.termType === graph.object.termType && q.subject.value === graph.object.value) continue;
    const id = canonicalGlobalId(q.object.value);
    if ((own !== undefined && id === canonicalGlobalId(own)) || (await records.byGlobalId(id))) named.add(q.object.value);
  }
  if (named.size === 0) return;
  const results = [...named].map((value): ValidationResult => {
    const at = pathOf(body, value);
    return {
      focusNode: at.replace(/\.globalId$/, ''),
      path: at,
      value,
      severity: 'Violation',
      sourceShape: 'OwnedItems',
      message: `${at} carries ${value}, the globalId of a consignment; an item may not carry a consignment's globalId`,
    };
  });
  throw new Unprocessable(`${results[0]!.message}${results.length > 1 ? ` (and ${results.length - 1} more)` : ''}`, { results });
}

/** Where the value is sent as a `globalId` in the JSON, e.g. `object.includedConsignment[1].globalId`. */
function pathOf(body: unknown, value: string): string {
  let found: string | undefined;
  walkEntries(body, (key, v, at) => {
    // The object's own globalId is not an item's: the item is the one sent deeper.
    if (
      key === 'globalId' &&
      at !== 'object.globalId' &&
      (v === value || (typeof v === 'object' && v !== null && (v as Record<string, unknown>)['@value'] === value))
    )
      if (found === undefined || at < found) found = at;
    return typeof v === 'object' && v !== null;
  });
  return found ?? 'object';
}
