import { parentPort } from 'node:worker_threads';
import { QueryLimitExceeded } from '../guard.js';
import { analyseQuery, QueryRefused } from '../query.js';
import type { FromParser, ToParser } from './parse-messages.js';

/**
 * The SPARQL endpoint's parse thread: checks each query's size, nesting and triple patterns and parses
 * it (sparqljs), so a hostile query costs this thread, never the event loop. Anything else thrown
 * (a stack overflow, say) kills the thread, and the pool answers that query alone with an error.
 */
const port = parentPort!;

port.on('message', ({ id, text, maxSolutions, limits }: ToParser) => {
  let reply: FromParser;
  try {
    reply = { id, analysed: analyseQuery(text, maxSolutions, limits) };
  } catch (error) {
    if (error instanceof QueryLimitExceeded) reply = { id, refused: { reason: 'limit', limit: error.limit, message: error.message } };
    else if (error instanceof QueryRefused) reply = { id, refused: { reason: error.reason, message: error.message } };
    else throw error;
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
