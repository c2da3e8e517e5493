/**
 * One error family. Routes throw these; the error handler alone turns them into
 * `{name, message, properties?}` bodies. Names follow spec 7.4 where it gives one.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    override readonly name: string,
    message: string,
    readonly properties?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): { name: string; message: string; properties?: Record<string, unknown> } {
    return this.properties === undefined
      ? { name: this.name, message: this.message }
      : { name: this.name, message: this.message, properties: this.properties };
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, properties?: Record<string, unknown>) {
    super(400, 'BadRequest', message, properties);
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, 'UnauthorizedError', message);
  }
}

export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, 'Forbidden', message);
  }
}

export class NotFound extends HttpError {
  constructor(message = 'Not found') {
    super(404, 'NotFound', message);
  }
}

export class NotAcceptable extends HttpError {
  constructor(message: string) {
    super(406, 'NotAcceptable', message);
  }
}

/** A request that contradicts what the node already holds under the same name (a reused activity id, an email already registered). */
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, 'Conflict', message);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(message: string) {
    super(413, 'PayloadTooLarge', message);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor(message: string) {
    super(415, 'UnsupportedMediaType', message);
  }
}

/** A payload that is well-formed JSON but breaks the interface's rules: GeneralError with details. */
export class Unprocessable extends HttpError {
  constructor(message: string, properties: Record<string, unknown>) {
    super(422, 'GeneralError', message, properties);
  }
}

export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'TooManyRequests', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * An organisation's quota, or a consignment's bound, would be passed (src/core/quotas/): the node is not
 * full, this write is over its share. 507 as RFC 4918 answers a quota; the name tells it from a full node.
 */
export class QuotaExceeded extends HttpError {
  constructor(message: string) {
    super(507, 'QuotaExceeded', message);
  }
}

/**
 * The node cannot take the request now, though it may shortly: starting, its read index loading, or a
 * bounded piece of work full or past its time. `Retry-After` when the node knows when to ask again.
 */
export class ServiceUnavailable extends HttpError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(
      503,
      'ServiceUnavailable',
      message,
      undefined,
      retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** A SPARQL query stopped at its time limit: 503 as a busy node, named so the client narrows the query rather than retry it. */
export class QueryTimeout extends HttpError {
  constructor(message: string) {
    super(503, 'QueryTimeout', message);
  }
}

export class InsufficientStorage extends HttpError {
  constructor(message: string) {
    super(507, 'InsufficientStorage', message);
  }
}

/**
 * An error of the OAuth token endpoint (RFC 6749 section 5.2): OAuth clients read `error` and
 * `error_description`; the body also carries the node's `name` (the one every other 400 and 401 of
 * the node carries: BadRequest, UnauthorizedError; src/core/error-names.ts) and `message`, the same text.
 */
export class OAuthError extends HttpError {
  constructor(
    status: 400 | 401,
    readonly code: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    description: string,
    headers?: Record<string, string>,
  ) {
    super(status, status === 401 ? 'UnauthorizedError' : 'BadRequest', description, undefined, {
      'Cache-Control': 'no-store',
      ...headers,
    });
  }

  override toBody(): { name: string; message: string; error: string; error_description: string } {
    return { name: this.name, message: this.message, error: this.code, error_description: this.message };
  }
}
