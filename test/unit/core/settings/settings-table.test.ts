import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../../../../src/config.js';
import { projectRoot } from '../../../../src/core/project-paths.js';
import { SETTINGS } from '../../../../src/core/settings/table.js';

/** Every .ts file under src/, for the check that each variable a reader names has a row. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('the settings table', () => {
  it('has one row per variable, each with a doc line and a page that exists', () => {
    const names = SETTINGS.map((s) => s.name);
    expect(new Set(names).size).to.equal(names.length);
    for (const row of SETTINGS) {
      expect(row.doc, row.name).to.match(/\S/);
      const file = row.page.split('#')[0] ?? '';
      expect(existsSync(join(projectRoot, file === 'README.md' ? '' : 'docs', file)), `${row.name}: ${row.page}`).to.equal(true);
      if (row.type === 'integer') expect(row.min, row.name).to.be.a('number');
    }
  });

  it('has a row for every variable the code names as a string', () => {
    const named = new Set<string>();
    for (const file of sources(join(projectRoot, 'src')))
      for (const m of readFileSync(file, 'utf8').matchAll(/'((?:DATASPACE|JWT|NODE|DATABASE)_[A-Z0-9_]+|PORT|HOST)'/g))
        named.add(m[1] ?? '');
    const rows = new Set(SETTINGS.map((s) => s.name));
    expect([...named].filter((n) => !rows.has(n) && !n.startsWith('DATASPACE_TEST_'))).to.deep.equal([]);
  });

  it('gives the defaults the node has always had', () => {
    const config = readConfig({});
    expect(config.tokenLifetimeSeconds).to.equal(3600);
    expect(config.bodyLimitBytes).to.equal(1024 * 1024);
    expect(config.fsync).to.equal(true);
    expect(config.notify).to.include({ baseMs: 1000, maxDelayMs: 3_600_000, giveUpAfterMs: 86_400_000, timeoutMs: 10_000, concurrency: 8 });
    expect(config.notify.allow).to.deep.equal(['*']);
    expect(config.fetch).to.include({ maxBytes: 25 * 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5, quotaBytes: 1024 ** 3 });
    expect(config.sparql).to.include({ timeoutMs: 10_000, maxResults: 10_000, maxQueryBytes: 65_536, threads: 2, idleMs: 300_000 });
    expect(config.store).to.include({ kind: 'embedded', snapshotLogBytes: 64 * 1024 * 1024, images: true, imageMinQuads: 100_000 });
    expect(config.store.compaction).to.deep.equal({ percent: 50, minDead: 100_000 });
    expect(config.readerQueue).to.deep.equal({ perOrganisation: 32, total: 256, smallValues: 1000 });
    expect(config.idempotency.maxIdsPerActor).to.equal(100_000);
    expect(config.login).to.deep.include({ windowSeconds: 900, scryptQueue: 32 });
    expect(config.server).to.include({ headersTimeoutMs: 20_000, requestTimeoutMs: 120_000, maxConnections: 2_000 });
    expect(config.quotas).to.include({ consignments: 100_000, policies: 100, contributorBytes: 2 * 1024 * 1024 });
    expect(config.clientSecretOverlapSeconds).to.equal(86_400);
    expect(config.assertionReplayPerOrg).to.equal(10_000);
    expect(
      readConfig({ DATASPACE_STORE: 'sparql', DATASPACE_SPARQL_QUERY_URL: 'http://s/q', DATASPACE_SPARQL_UPDATE_URL: 'http://s/u' }).store
        .maxQuads,
    ).to.equal(0);
  });

  it("refuses a value below the row's bound, naming the variable", () => {
    expect(() => readConfig({ DATASPACE_TOKEN_TTL_SECONDS: '59' })).to.throw(
      'DATASPACE_TOKEN_TTL_SECONDS must be an integer ≥ 60, got "59"',
    );
    expect(() => readConfig({ DATASPACE_STORE_IMAGES: 'maybe' })).to.throw('DATASPACE_STORE_IMAGES must be on or off, got "maybe"');
  });
});
