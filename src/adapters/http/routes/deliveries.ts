import { Router } from 'express';
import type { Visibility } from '../../../core/policy/visibility.js';
import type { Outbox } from '../../../core/notify/outbox.js';
import type { Registry } from '../../../core/registry/registry.js';
import { refuseUnknown } from '../list-filters.js';
import { guardConsignmentIds, PUBLISHER_ONLY, visibleOf } from '../visible-consignment.js';
import { error, json, pathId, ref, type ApiOperation } from '../api-operation.js';

export interface DeliveryRouteDeps {
  visibility: Visibility;
  outbox: Outbox;
  registry: Registry;
}

/**
 * GET …/consignments/{id}/deliveries: the signals raised about a consignment and how their delivery
 * went, for its publisher only. Anyone else, even a reader under a policy, gets the 404 of a missing id.
 */
export function deliveryRoutes(deps: DeliveryRouteDeps): Router {
  const router = Router();
  guardConsignmentIds(router, deps.visibility, PUBLISHER_ONLY);
  router.get('/supply-chain/data-space/consignments/:id/deliveries', async (req, res) => {
    refuseUnknown(req, []);
    const rows = await deps.outbox.ofConsignment(visibleOf(req).consignment);
    // A field without a value is left out (JSON drops undefined), never null.
    res.json(
      rows.map((row) => ({
        signal: row.signal,
        type: row.type,
        published: row.published,
        receiver: row.receiver,
        receiverName: deps.registry.organisation(row.receiver)?.name,
        state: row.state,
        attempts: row.attempts,
        lastStatus: row.lastStatus,
        lastError: row.lastError,
        lastAttempt: row.lastAttempt,
        nextAttempt: row.state === 'pending' ? row.nextAttempt : undefined,
        completed: row.completed,
      })),
    );
  });
  return router;
}

export const deliveryOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/supply-chain/data-space/consignments/{id}/deliveries',
    operationId: 'listConsignmentDeliveries',
    tag: 'Signals',
    authenticated: true,
    summary: "The signals raised about one of the caller's consignments and how their delivery went",
    parameters: [pathId('id', "The consignment's globalId, identifier, the root id it was sent with, or an activity urn")],
    responses: {
      200: json('Deliveries in queue order', { type: 'array', items: ref('Delivery') }),
      400: error('A query parameter the list does not take'),
      404: error("No consignment of the caller's organisation"),
    },
  },
];
