import { parentPort } from 'node:worker_threads';
import { HttpError } from '../errors.js';
import { createPayloadValidator } from '../validation/index.js';
import { InlineReader } from './payload-reader.js';
import { ShapeCheck } from './shape-check.js';
import { validatePayload } from './validate-payload.js';
import type { FromReader, ToReader } from './reader-messages.js';

/**
 * A reading thread: compiles the shapes once, then turns each activity it is sent into checked quads
 * (JSON-LD → RDF and SHACL, the inbox's heaviest steps), or a validation report for /validate, off the
 * node's event loop. jsonld.js gives plain term objects, which cross back to the node's thread as they are.
 */
const port = parentPort!;
const validator = await createPayloadValidator();
const reader = new InlineReader(new ShapeCheck(validator));

port.on('message', async ({ id, body, validate }: ToReader) => {
  let reply: FromReader;
  try {
    reply = validate ? { id, validated: await validatePayload(body as Record<string, unknown>, validate, validator) } : { id, quads: await reader.read(body) };
  } catch (error) {
    reply = error instanceof HttpError
      ? { id, refused: { status: error.status, name: error.name, message: error.message, properties: error.properties } }
      : { id, failed: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies FromReader);
