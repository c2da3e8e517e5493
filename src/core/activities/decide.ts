import type { ActivityType } from './envelope.js';
import type { ActivityGraph } from './activity-graph.js';
import { checkItemGlobalIds } from './item-global-ids.js';
import { failure, type HandlerContext, type Outcome, type Step } from './handlers/handler.js';
import { HANDLERS, type HandlerKey } from './handlers/table.js';
import type { Principal } from '../auth/principal.js';
import { Forbidden, Unprocessable } from '../errors.js';
import { unece } from '../rdf/namespaces.js';

/**
 * What an activity does, decided from what was sent and the state the handlers read: which row of
 * the handler table it takes, and under the ingest lock, the handler's outcome. Nothing here writes;
 * the change to commit is built from the outcome (build-change.ts).
 */

/** Only the sender's own organisation may be the actor: anyone else's name is a 403, not a check failure. */
export function checkActor(graph: ActivityGraph, principal: Principal): void {
  const actor = graph.actorDid();
  if (actor === principal.org.id) return;
  throw new Forbidden(
    `The actor's registeredId ${actor === undefined ? '(missing or not typed as a DID)' : actor} is not your organisation ${principal.org.id}`,
  );
}

/** The row of the handler table: Create and Update take a Consignment; an Add, an event or a document. */
export function handlerKey(type: ActivityType, graph: ActivityGraph): HandlerKey {
  const types = graph.objectTypes();
  if (type === 'Add') return types.includes(unece('Document')) ? 'add-document' : 'add-event';
  if (types.length > 0 && !types.includes(unece('Consignment'))) {
    throw new Unprocessable(`The object of a ${type} must be a Consignment`, {
      results: [
        {
          focusNode: 'object',
          path: 'type',
          message: 'must be Consignment',
          severity: 'Violation',
          sourceShape: 'ActivityShape',
          value: types.join(' '),
        },
      ],
    });
  }
  return type === 'Create' ? 'create' : 'update';
}

/**
 * The outcome under the lock, where the records cannot change before the commit. A document whose
 * file could not be fetched is a processing failure like any other: the entry says failed, nothing is
 * stored, and the same activity may be sent again once the file is there.
 */
export async function decide(key: HandlerKey, step: Step, context: HandlerContext, json: unknown): Promise<Outcome> {
  await checkItemGlobalIds(step.graph, context.records, json);
  if (step.file && !step.file.ok) return failure('document-store', 'FileNotFetched', step.file.reason);
  return HANDLERS[key](step, context);
}
