import { Router } from 'express';
import type { QuadStore } from '../../../core/ports/quad-store.js';
import type { QueryBank } from '../../../core/queries/query-bank.js';
import { iri } from '../../../core/queries/query-bank.js';
import { isSafeIri } from '../../../core/rdf/terms.js';
import { principalOf } from '../authenticate.js';
import { NotFound } from '../../../core/errors.js';
import { error, json, pathId, ref, type ApiOperation } from '../api-operation.js';

/** GET /supply-chain/data-space/activity-logs/{id}: an entry, to the organisation that sent the activity. */
export function activityLogRoutes(store: QuadStore, queries: QueryBank): Router {
  const router = Router();
  router.get('/supply-chain/data-space/activity-logs/:id', async (req, res) => {
    const id = req.params.id;
    if (!isSafeIri(id)) throw new NotFound(`No activity-log entry ${id}`);
    const [row] = await store.activityLog.select(
      queries.bind('views/activity-log-entry', { activity: iri(id), org: iri(principalOf(req).org.id) }),
    );
    if (!row) throw new NotFound(`No activity-log entry ${id}`);
    res.type('application/json').send(row.get('entry')!.value);
  });
  return router;
}

export const activityLogOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/supply-chain/data-space/activity-logs/{id}',
    operationId: 'getActivityLogEntry',
    tag: 'Inbox',
    authenticated: true,
    summary: 'An activity-log entry, to the organisation that sent the activity',
    parameters: [pathId('id', "The entry's id, as the inbox answered it (urn:uuid:…)")],
    responses: { 200: json('The entry', ref('ActivityLogEntry')), 404: error("No such entry of the caller's organisation") },
  },
];
