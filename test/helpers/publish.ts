import { expect } from 'chai';
import type { Ingest } from '../../src/core/activities/ingest.js';
import type { Principal } from '../../src/core/auth/principal.js';

/** Sends an activity straight to the ingest (no HTTP), expecting it accepted. */
export async function publish(ingest: Ingest, principal: Principal, body: Record<string, unknown>): Promise<void> {
  expect((await ingest.receive(body, principal)).status).to.equal('completed');
}
