import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import { ConfigError } from '../../core/config-values.js';
import { ServiceUnavailable } from '../../core/errors.js';
import { errorHandler } from '../http/error-handler.js';
import { ServerClasses } from '../http/server-classes.js';
import { applyServerLimits, serverOptions, type ServerLimits } from '../http/server-limits.js';
import type { Logger } from '../../core/logger.js';
import { probeRoutes } from './probes.js';
import { requestId } from './request-id.js';

export interface EarlyServer {
  server: Server;
  /** Hands every later request to the node's app. */
  serve(app: Express): void;
  /** What the 503 answers say meanwhile (a replica on standby says so). */
  waiting(message: string): void;
}

/**
 * Listens before the node is built, so an orchestrator sees the process up while the store recovers
 * (which takes minutes on a large log): /healthz answers 200, /readyz and everything else 503 with
 * Retry-After until the node's app takes over.
 */
export async function listenEarly(port: number, host: string, limits: ServerLimits, logger: Logger): Promise<EarlyServer> {
  const starting = express();
  starting.disable('x-powered-by');
  starting.use((req, res, next) => {
    requestId(req, res);
    next();
  });
  starting.use(probeRoutes(() => false));
  let message = 'The node is starting (recovering its store); retry shortly';
  starting.use((_req, _res, next) => {
    next(new ServiceUnavailable(message, 1));
  });
  starting.use(errorHandler(logger));
  const classes = new ServerClasses();
  classes.serve(starting);
  let handler: (req: IncomingMessage, res: ServerResponse) => void = starting;
  const server = createServer({ ...serverOptions(limits), ...classes.options }, (req, res) => handler(req, res));
  applyServerLimits(server, limits);
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (error) {
    throw listenError(error as NodeJS.ErrnoException, port, host);
  }
  return {
    server,
    serve: (app) => {
      classes.serve(app);
      handler = app;
    },
    waiting: (text) => {
      message = text;
    },
  };
}

/** What an operator does about a port the node cannot listen on, in one line (no stack: it is not a fault of the node). */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new ConfigError(`Port ${port} is already in use (${where}): set PORT to a free port, or stop what listens there`);
  if (error.code === 'EACCES') return new ConfigError(`No permission to listen on ${where}: set PORT to a port above 1023`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new ConfigError(`${host} is not an address of this machine: set HOST (0.0.0.0 listens on all of them)`);
  return error;
}
