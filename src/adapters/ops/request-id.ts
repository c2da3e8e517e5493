import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// A caller's id is kept only when it cannot forge log structure or flood a line: short, plain characters.
const SANE = /^[A-Za-z0-9._:@-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when sane, else a new UUID; echoed on the answer. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SANE.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
