import type { NextFunction, Request, Response } from 'express';
import { POSITION_HEADER, ROLE_HEADER } from './serving-role.js';

/**
 * Gives every answer the replica's commit position and its role (which replica holds the writer lease) as its head is written: after the commit of a
 * write that is answered, so the position covers it. (What the `on-headers` package does, in a few lines.)
 */
export function positionStamp(position: () => number, role: 'writer' | 'follower') {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      // A forwarded answer keeps the writer's own.
      if (!this.headersSent && !this.hasHeader(POSITION_HEADER)) {
        this.setHeader(POSITION_HEADER, String(position()));
        this.setHeader(ROLE_HEADER, role);
      }
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    next();
  };
}
