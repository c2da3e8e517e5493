import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { SparqlStoreError } from '../sparql-server/sparql-server-text.js';

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
  name?: string;
  code?: string;
}

/** Maps express/body-parser failures onto the error family. */
function fromParser(error: BodyParserError): HttpError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new HttpError(400, 'BadRequest', `The body is not valid JSON: ${error.message ?? ''}`.trim());
    case 'entity.too.large':
      return new HttpError(413, 'PayloadTooLarge', 'The body is larger than the configured limit (DATASPACE_BODY_LIMIT)');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'UnsupportedMediaType', error.message ?? 'Unsupported encoding');
    case 'request.aborted':
      return new HttpError(400, 'BadRequest', 'The request was aborted');
    default:
      break;
  }
  // zlib on a body that is not what its Content-Encoding says (raw-body passes zlib's error through).
  if (
    (typeof error.code === 'string' && error.code.startsWith('Z_')) ||
    error.code?.startsWith('ERR__ERROR_FORMAT') ||
    error.message === 'Decompression failed'
  ) {
    return new HttpError(400, 'BadRequest', 'The body could not be decoded with its Content-Encoding');
  }
  // express 5 could not percent-decode a path parameter (%ZZ).
  if (error.name === 'URIError' && error.status === 400)
    return new HttpError(400, 'BadRequest', 'The path holds a malformed percent escape');
  // Any other client error express or its parsers raise: its status, a message that repeats nothing of the input.
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500)
    return new HttpError(error.status, 'BadRequest', 'The request could not be read');
  return undefined;
}

/** A body was announced and not read (the request was refused from its head): it is not read now either. */
function bodyUnread(req: Request): boolean {
  if (req.complete || req.readableEnded) return false;
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/** The one place error bodies are written: `{name, message}` (+ `properties` on GeneralError). */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const http = error instanceof HttpError ? error : fromParser(error as BodyParserError);
    if (http) {
      if (http.headers) res.set(http.headers);
      // Node would otherwise read the rest of the body to keep the connection: closing it costs the
      // refused sender a new connection instead of costing the node the body (a 401 before any read).
      if (bodyUnread(req)) res.set('Connection', 'close');
      res.status(http.status).json(http.toBody());
      return;
    }
    // The SPARQL server is away (restarting, unreachable): the same request may be sent again shortly (a
    // write with its activity id is answered once; HAProxy retries a read). Logged without a stack.
    if (error instanceof SparqlStoreError && error.unanswered) {
      logger.warn('the SPARQL server did not answer', { error: error.message });
      res
        .set('Retry-After', '1')
        .status(503)
        .json({ name: 'ServiceUnavailable', message: 'The store did not answer; send the request again shortly' });
      return;
    }
    logger.error('unhandled error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    res.status(500).json({ name: 'InternalServerError', message: 'The request could not be completed' });
  };
}
