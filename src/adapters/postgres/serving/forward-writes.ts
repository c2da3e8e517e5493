import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { HttpError, ServiceUnavailable } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import type { WriterAddress } from './writer-address.js';

/** Headers that belong to one connection, never passed on (RFC 9110 7.6.1), and the body's framing undici sets. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/**
 * GETs a follower does not answer itself: the change feed and the receivers' ledger wait for the
 * writer's catch-up of their indexes, which only the writer runs; a logout or a refresh by GET writes.
 */
const WRITER_READS =
  /^\/(?:supply-chain\/data-space\/(?:changes|signals)|console\/(?:changes|deliveries)|authentication\/(?:logout|refresh))(?:\/|$)/;

/** Whether a request must go to the writer: every method but a read, and the reads above. */
export function forWriter(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') return true;
  return WRITER_READS.test(req.path);
}

/** The writer answered nothing after the request was sent: whether it was applied is unknown. */
class BadGateway extends HttpError {
  constructor(message: string) {
    super(502, 'BadGateway', message);
  }
}

/**
 * A follower's forwarding of writes (and of the reads above) to the replica holding the writer lease,
 * with undici: the caller's method, path, headers (its credentials among them) and body as they came,
 * and the writer's status, headers (its Dataspace-Position among them) and body as they come back. A
 * writer that cannot be reached before the request is sent is answered 503 with Retry-After (a
 * takeover is under way); one that fails after, 502: the write may or may not be applied, and a
 * client sends it again with its activity id.
 */
export function forwardWrites(writer: WriterAddress, logger: Logger): RequestHandler {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!forWriter(req)) {
      next();
      return;
    }
    void forward(req, res, writer, agent).catch((error: unknown) => {
      if (error instanceof HttpError) next(error);
      else if (res.headersSent) res.destroy(error as Error);
      else {
        logger.warn('a request forwarded to the writer failed', { error: (error as Error).message });
        next(new BadGateway('The replica holding the writer lease did not answer; send it again (with its activity id) shortly'));
      }
    });
  };
}

async function forward(req: Request, res: Response, writer: WriterAddress, agent: Agent): Promise<void> {
  const address = await writer.current();
  if (!address) throw new ServiceUnavailable('No replica of the set holds the writer lease now; retry shortly', 1);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP.has(name)) headers[name] = value;
  const from = req.socket.remoteAddress;
  if (from) headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for'] as string}, ${from}` : from;
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  let answer;
  try {
    answer = await request(`${address}${req.originalUrl}`, {
      method: req.method as 'POST',
      headers,
      body: hasBody ? req : undefined,
      dispatcher: agent,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  } catch (error) {
    // Refused before anything was sent: this writer is gone; the next one publishes its address.
    if ((error as { code?: string }).code === 'ECONNREFUSED') {
      writer.forget();
      throw new ServiceUnavailable('The replica holding the writer lease is changing; retry shortly', 1);
    }
    throw error;
  }
  res.status(answer.statusCode);
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP.has(name)) res.setHeader(name, value);
  await pipeline(answer.body, res);
}
