import { parentPort } from 'node:worker_threads';
import { HttpError } from '../errors.js';
import { createPayloadValidator } from '../validation/index.js';
import { InlineReader } from './payload-reader.js';
import { warmUp } from './parse.js';
import { ShapeCheck } from './shape-check.js';
import { validatePayload } from './validate-payload.js';
import { encodeQuads } from '../rdf/quad-wire.js';
import type { FromReader, ToReader } from './reader-messages.js';

/**
 * A reading thread: compiles the shapes once, then turns each activity it is sent into checked quads
 * (JSON-LD → RDF and SHACL, the inbox's heaviest steps), or a validation report for /validate, off the
 * node's event loop. The quads cross back in their flat form (src/core/rdf/quad-wire.ts): cloning term objects
 * cost the node's thread more to read back than the rest of the answer.
 */
const port = parentPort!;
const validator = await createPayloadValidator();
const reader = new InlineReader(new ShapeCheck(validator));

port.on('message', async ({ id, body, validate }: ToReader) => {
  let reply: FromReader;
  try {
    if (validate) {
      reply = { id, validated: await validatePayload(body as Record<string, unknown>, validate, validator) };
    } else {
      const quads = await reader.read(body);
      const wire = encodeQuads(quads);
      reply = wire ? { id, wire } : { id, quads };
    }
  } catch (error) {
    reply =
      error instanceof HttpError
        ? { id, refused: { status: error.status, name: error.name, message: error.message, properties: error.properties } }
        : { id, failed: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
// Before saying ready: the readiness probe then waits for the contexts too, not the first payloads.
await warmUp().catch(() => undefined);
port.postMessage({ ready: true } satisfies FromReader);
