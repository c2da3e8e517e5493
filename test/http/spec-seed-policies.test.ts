import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SEED, TestNode } from '../helpers/test-node.js';

const POLICIES = '/supply-chain/data-space/policies';

describe('spec fidelity: seed policies withdrawn over the API stay withdrawn; a changed seed applies', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dataspace-seedpol-'));
  const seedFile = join(dir, 'seed.json');
  const base = JSON.parse(readFileSync(TEST_SEED, 'utf8'));
  const writeSeed = (countries: string[][]) =>
    writeFileSync(
      seedFile,
      JSON.stringify({
        ...base,
        policies: countries.map((c) => ({ owner: 'did:web:forwarder.example', role: 'borderAgency', countries: c })),
      }),
    );
  // The first start makes (and, on an external store, clears) the node's data; restarts reuse it.
  let dataDir: string | undefined;
  const start = async () => {
    const node = await TestNode.start({ DATASPACE_SEED: seedFile }, dataDir);
    dataDir ??= node.config.dataDir;
    return node;
  };
  const seedPolicies = async (node: TestNode) =>
    ((await node.as('forwarder', 'GET', POLICIES)).body as any[]).filter((p) => String(p.id).includes('seed-'));
  const listed = async (node: TestNode) => (await seedPolicies(node)).map((p) => p.countries.join(',')).sort();
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a withdrawn seed policy withdrawn across restarts, applies a changed entry, and drops the old content of a changed entry', async function () {
    this.timeout(120_000); // four starts of a node, on a machine shared by many test runs
    writeSeed([['GB'], ['FR']]);
    let node = await start();
    expect(await listed(node)).to.deep.equal(['FR', 'GB']);
    const gb = (await seedPolicies(node)).find((p) => p.countries[0] === 'GB');
    expect((await node.as('forwarder', 'DELETE', `${POLICIES}/${encodeURIComponent(gb.id)}`)).status).to.be.within(200, 299);
    await node.stop(false);

    node = await start();
    expect(await listed(node)).to.deep.equal(['FR']);
    await node.stop(false);

    // The FR entry changes to FR+DE; the withdrawn GB entry stays in the file, unchanged.
    writeSeed([['GB'], ['DE', 'FR']]);
    node = await start();
    expect(await listed(node)).to.deep.equal(['DE,FR']);
    await node.stop(false);

    // Changing the withdrawn entry is a new content: it applies.
    writeSeed([
      ['GB', 'NL'],
      ['DE', 'FR'],
    ]);
    node = await start();
    expect(await listed(node)).to.deep.equal(['DE,FR', 'GB,NL']);
    await node.stop();
  });
});
