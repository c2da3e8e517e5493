import type { NextFunction, Request, Response } from 'express';
import { BadRequest, ServiceUnavailable } from '../../../core/errors.js';
import type { CommitFollower } from './commit-follower.js';
import { POSITION_HEADER } from './serving-role.js';

/**
 * Read-your-writes on a follower: a request that sends back the Dataspace-Position a write's answer
 * carried is answered once this replica has applied that commit; past `waitMs`, 503 with Retry-After
 * (this replica is behind; another may not be).
 */
export function readAfter(commits: CommitFollower, waitMs: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const sent = req.get(POSITION_HEADER);
    if (sent === undefined) {
      next();
      return;
    }
    if (!/^\d{1,15}$/.test(sent.trim())) {
      next(new BadRequest(`${POSITION_HEADER} must be the position a write's answer gave (a whole number), got ${JSON.stringify(sent)}`));
      return;
    }
    commits
      .reached(Number(sent.trim()), waitMs)
      .then(
        (reached) =>
          next(
            reached
              ? undefined
              : new ServiceUnavailable(`This replica has not yet applied the writes up to position ${sent.trim()}; retry shortly`, 1),
          ),
        next,
      );
  };
}
