import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { untilTrue } from '../helpers/until.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';

const INBOX = '/supply-chain/data-space/inbox';
const CREATES = 8;
const ITEMS = 640;

/** A Create of ~150 KB, which the store commits in slices (src/adapters/oxigraph/staged-inserts.ts). */
function largeCreate(): { body: Record<string, unknown>; globalId: string } {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    type: 'ConsignmentItem',
    information: `Gearbox spare parts, crate ${i}, packed on pallets of twelve with foam inserts`,
    originCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
  }));
  const c = consignment({ includedConsignmentItem: items });
  return { body: activity('Create', USERS.forwarder.org, c), globalId: c.globalId };
}

/**
 * A node killed while large Creates are committed in slices (and snapshots rotate its log) comes back
 * with each of them whole or absent: every acknowledged one whole, none with part of its items.
 */
describe('durability: SIGKILL while large commits load in slices', function () {
  this.timeout(240_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-large-crash-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('recovers each large Create whole or not at all, and every acknowledged one whole', async () => {
    const env = { DATASPACE_SNAPSHOT_LOG_BYTES: '262144' };
    const first = await ChildNode.start(dir, env);
    const sent = Array.from({ length: CREATES }, largeCreate);
    const acknowledged = new Set<string>();
    let next = 0;
    const senders = Array.from({ length: 3 }, async () => {
      while (next < CREATES) {
        const { body, globalId } = sent[next++]!;
        const res = await first.as('forwarder', 'POST', INBOX, body).catch(() => undefined);
        if (res?.status === 201) acknowledged.add(globalId);
      }
    });
    await untilTrue(() => acknowledged.size >= 2, 200_000);
    await first.kill('SIGKILL');
    await Promise.allSettled(senders);

    const second = await ChildNode.start(dir, env);
    try {
      const found: string[] = [];
      for (const { globalId } of sent) {
        const view = await second.as('forwarder', 'GET', `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`);
        if (acknowledged.has(globalId)) expect(view.status, `acknowledged ${globalId}`).to.equal(200);
        if (view.status === 404) continue;
        expect(view.status).to.equal(200);
        const items = (view.body as { includedConsignmentItem?: { originCountry?: unknown }[] }).includedConsignmentItem ?? [];
        expect(items, `items of ${globalId}`).to.have.length(ITEMS);
        expect(items.every((item) => item.originCountry !== undefined)).to.equal(true);
        found.push(globalId);
      }
      expect(found.length).to.be.at.least(acknowledged.size);
      expect(found.length, 'some sent were cut off by the kill').to.be.below(CREATES);
    } finally {
      await second.kill('SIGKILL');
    }
  });
});
