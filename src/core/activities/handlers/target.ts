import type { ConsignmentRecord } from '../../catalog/records.js';
import { routedThrough } from '../event-rules.js';
import { globalId, required } from './fields.js';
import { failure, type HandlerContext, type Outcome, type Step } from './handler.js';

/** The target consignment of an Add, checked against both its globalId and identifier; `byOperator` for a code location operators send. */
export async function target(step: Step, context: HandlerContext, appId: string, byOperator = false): Promise<ConsignmentRecord | Outcome> {
  const { graph } = step;
  const id = globalId(graph, graph.target, 'target');
  const identifier = required(graph, graph.target, 'identifier', 'target');
  const record = await context.records.byGlobalId(id);
  const missing = failure(appId, 'NotFound', `No consignment with globalId ${id} exists`);
  if (!record) return missing;
  // The identifier is told only to those who may read it: owner first, operators after the read check.
  const mismatch = () =>
    failure(appId, 'Conflict', `target.identifier ${identifier} does not match consignment ${id} (identifier ${record.identifier})`);
  if (byOperator) {
    // Refused like a read when no policy lets this operator read the consignment.
    if (!((await context.canRead?.(step.principal, record.consignment)) ?? true)) return missing;
    if (record.identifier !== identifier) return mismatch();
    // Spec 3/6: a location operator confirms consignments routed through its own locations.
    if (await routedThrough(context.store, context.queries, step.principal, record.consignment)) return record;
    return failure(appId, 'Forbidden', `Consignment ${id} is not routed through any of your locations`);
  }
  // Another organisation's consignment is answered as one that does not exist (issue 33).
  if (record.owner !== step.principal.org.id) return missing;
  if (record.identifier !== identifier) return mismatch();
  return record;
}
