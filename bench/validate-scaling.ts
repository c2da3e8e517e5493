import { createPayloadValidator } from '../src/core/validation/index.js';
import { validatePayload } from '../src/core/activities/validate-payload.js';
import { activity, consignment } from '../test/helpers/payloads.js';

/**
 * How /validate's cost grows with the payload: a Create whose consignment carries n item values, in
 * included consignments of at most 1,000 each (the array limit), validated as the reader threads do it.
 * Prints ms per size and ms per thousand items. `node dist/bench/validate-scaling.js`.
 */
const validator = await createPayloadValidator();
const sizes = (process.env.SIZES ?? '1000,5000,15000').split(',').map(Number);
const payload = (n: number) =>
  activity(
    'Create',
    'did:web:forwarder.example',
    consignment({
      includedConsignment: Array.from({ length: Math.ceil(n / 1000) }, (_, c) => ({
        type: 'Consignment',
        identifier: `HB-${c}`,
        includedConsignmentItem: Array.from({ length: Math.min(1000, n - c * 1000) }, (_, i) => i),
      })),
    }),
  );
await validatePayload(payload(100), 'json', validator);
for (const n of sizes) {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await validatePayload(payload(n), 'json', validator);
    runs.push(performance.now() - started);
  }
  const ms = Math.min(...runs);
  console.log(`${String(n).padStart(6)} items  ${ms.toFixed(0).padStart(6)} ms  ${((ms / n) * 1000).toFixed(1)} ms per 1k`);
}
