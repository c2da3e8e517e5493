import { Router } from 'express';
import type { Ingest } from '../../../core/activities/ingest.js';
import { principalOf } from '../authenticate.js';
import { error, json, ref, type ApiOperation } from '../api-operation.js';

/** POST /supply-chain/data-space/inbox (spec 4.2): answers 201 with the activity-log entry. */
export function inboxRoutes(ingest: Ingest, baseUrl: string): Router {
  const router = Router();
  router.post('/supply-chain/data-space/inbox', async (req, res) => {
    const entry = await ingest.receive(req.body, principalOf(req));
    res
      .status(201)
      .location(`${baseUrl}/supply-chain/data-space/activity-logs/${encodeURIComponent(entry.id)}`)
      .json(entry);
  });
  return router;
}

export const inboxOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/supply-chain/data-space/inbox',
    operationId: 'postActivity',
    tag: 'Inbox',
    authenticated: true,
    summary: 'Publish a consignment, event or document (Create, Update, Add)',
    description:
      'The activity is expanded against the bundled contexts and validated with SHACL (shapes/); a payload that does not conform answers 422 ' +
      '(400 when a required field is missing) with the report in `properties`. What depends on stored data (a target that does not exist or is another ' +
      'organisation\'s, a conflict with stored state, a file that cannot be fetched) answers 201 with `status: "failed"` and `tasks[].error`.',
    requestBody: {
      required: true,
      content: {
        'application/json': ref('Activity'),
        'application/ld+json': ref('Activity'),
        'application/activity+json': ref('Activity'),
      },
    },
    responses: {
      201: json('Accepted: the activity-log entry', ref('ActivityLogEntry'), {
        Location: { description: "The entry's activity-logs URL", schema: { type: 'string' } },
      }),
      400: error(
        'Not an activity: no type, a required field missing or null (BadRequest, with the report in `properties` when the shapes found it)',
      ),
      401: error('Missing or invalid credentials'),
      403: error("The actor is not the caller's organisation, or the role may not send this"),
      409: error('The activity id was already applied with another payload (Conflict)'),
      413: error('The body is larger than DATASPACE_BODY_LIMIT'),
      415: error('The body is not JSON'),
      422: error('The payload failed SHACL validation or JSON-LD expansion (GeneralError with the report)'),
      429: error("The caller's organisation has DATASPACE_READER_QUEUE_PER_ORG payloads waiting to be read"),
      507: error(
        "The store is at its capacity (InsufficientStorage, DATASPACE_MAX_QUADS), or the write would pass a quota of the caller's organisation or a bound of the consignment (QuotaExceeded, DATASPACE_QUOTA_*)",
      ),
    },
  },
];
