import type { Server, ServerOptions } from 'node:http';
import { integerFrom as integer } from '../../core/settings/read.js';

/** Limits on connections, so idle or slow clients cannot hold the node's descriptors (DATASPACE_HTTP_*). */
export interface ServerLimits {
  /** Whole request head within this time, counted from the connection (slowloris, idle sockets). */
  headersTimeoutMs: number;
  /** Whole request, body included, within this time. */
  requestTimeoutMs: number;
  /**
   * An authenticated request's body within this time, counted from the end of its head; shorter than
   * the whole-request time-out, which must also cover a slow start. A request without credentials has
   * its body never read (it is answered 401 from its head and its connection closed).
   */
  bodyTimeoutMs: number;
  /** An idle kept-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed on arrival, keeping descriptors for the log and files. */
  maxConnections: number;
  /** How often the two timeouts above are checked. */
  checkIntervalMs: number;
}

export function readServerLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const headersTimeoutMs = integer(env, 'DATASPACE_HTTP_HEADERS_TIMEOUT_MS');
  return {
    headersTimeoutMs,
    // Node requires the request timeout to be at least the headers timeout.
    requestTimeoutMs: Math.max(headersTimeoutMs, integer(env, 'DATASPACE_HTTP_REQUEST_TIMEOUT_MS')),
    bodyTimeoutMs: integer(env, 'DATASPACE_HTTP_BODY_TIMEOUT_MS'),
    keepAliveTimeoutMs: integer(env, 'DATASPACE_HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    maxConnections: integer(env, 'DATASPACE_HTTP_MAX_CONNECTIONS'),
    checkIntervalMs: integer(env, 'DATASPACE_HTTP_CHECK_INTERVAL_MS'),
  };
}

/** What must be given when the server is made (the check interval cannot change later). */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  };
}

export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // Node's headers timeout counts from a request's first byte: a socket that never sends one would stay.
  // Until its first request, a connection gets the headers timeout as its idle limit; Node takes the
  // socket's timeout over from there (none while a request runs, keepAliveTimeout between requests).
  server.on('connection', (socket) => {
    socket.setTimeout(limits.headersTimeoutMs);
  });
  server.on('request', (req) => {
    req.socket.setTimeout(server.timeout);
  });
  answerClientErrors(server);
}

/**
 * Requests Node's parser refuses (malformed head, oversized headers, timeouts) never reach express:
 * answered here with the same `{name, message}` body as every other error, then the socket is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // As Node's own handler: nothing is written over an answer already under way.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || answering || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, name, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'RequestHeaderFieldsTooLarge', 'The request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [
              408,
              'RequestTimeout',
              'The request did not arrive in time (DATASPACE_HTTP_HEADERS_TIMEOUT_MS / DATASPACE_HTTP_REQUEST_TIMEOUT_MS)',
            ]
          : [400, 'BadRequest', 'The request is not well-formed HTTP'];
    const body = JSON.stringify({ name, message });
    socket.end(
      `HTTP/1.1 ${status} ${name}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\nx-content-type-options: nosniff\r\ncache-control: no-store\r\n\r\n${body}`,
    );
  });
}
