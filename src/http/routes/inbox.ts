import { Router } from 'express';
import type { Ingest } from '../../activities/ingest.js';
import { principalOf } from '../authenticate.js';

/** POST /supply-chain/data-space/inbox (spec 4.2): answers 201 with the activity-log entry. */
export function inboxRoutes(ingest: Ingest, baseUrl: string): Router {
  const router = Router();
  router.post('/supply-chain/data-space/inbox', async (req, res) => {
    const entry = await ingest.receive(req.body, principalOf(req));
    res.status(201)
      .location(`${baseUrl}/supply-chain/data-space/activity-logs/${encodeURIComponent(entry.id)}`)
      .json(entry);
  });
  return router;
}
