import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../core/errors.js';

/** A body that has not arrived whole within its time: answered, then its connection is closed. */
export class BodyTimeout extends HttpError {
  constructor(ms: number) {
    super(408, 'RequestTimeout', `The request body did not arrive within ${ms} ms (DATASPACE_HTTP_BODY_TIMEOUT_MS)`, undefined, {
      Connection: 'close',
    });
  }
}

/**
 * `parse` (a body parser) with a deadline: a body still arriving after `ms` is answered 408 at once and
 * its connection closed, instead of holding the connection until Node's whole-request time-out. Run after
 * authentication, so only a caller with credentials gets this far; body-parser itself would read a
 * failed body to its end before answering, which is what a slow sender wants.
 */
export function bodyWithin(parse: RequestHandler, ms: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      res.once('finish', () => req.socket.destroy());
      next(new BodyTimeout(ms));
    }, ms);
    void parse(req, res, (error?: unknown) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      next(error);
    });
  };
}
