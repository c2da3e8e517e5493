import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../../src/core/project-paths.js';
import { DEFAULT_QUOTAS, QUOTA_BOUNDS, readQuotaConfig, type QuotaConfig } from '../../../../src/core/quotas/quota-config.js';
import { quotaRefusal, type Adding, type Standing } from '../../../../src/core/quotas/quota-rule.js';

const limits: QuotaConfig = {
  ...DEFAULT_QUOTAS,
  consignments: 2,
  graphs: 10,
  policies: 1,
  bytes: 1000,
  consignmentGraphs: 3,
  consignmentBytes: 500,
  contributions: 4,
  contributionBytes: 400,
  contributorGraphs: 2,
  contributorBytes: 300,
};
const org = (fields: Partial<Standing['organisation']> = {}) => ({ consignments: 0, graphs: 0, policies: 0, bytes: 0, ...fields });
const adding = (fields: Partial<Adding> = {}): Adding => ({ consignments: 0, graphs: 0, policies: 0, bytes: 10, ...fields });

describe('quotas: the rule', () => {
  // One row per bound: where the write stands, what it adds, the bound it passes (or none).
  const rows: [string, Standing, Adding, string | undefined][] = [
    ['a consignment within the quota', { organisation: org({ consignments: 1 }) }, adding({ consignments: 1 }), undefined],
    ['a consignment past it', { organisation: org({ consignments: 2 }) }, adding({ consignments: 1 }), 'consignments'],
    ['a policy past the policies', { organisation: org({ policies: 1 }) }, adding({ policies: 1 }), 'policies'],
    ['a withdrawal over every quota', { organisation: org({ policies: 5, bytes: 5000 }) }, adding({ policies: -1, bytes: 0 }), undefined],
    ['bytes past the organisation', { organisation: org({ bytes: 995 }) }, adding(), 'bytes'],
    ['the owner past its own graphs', { organisation: org(), own: { graphs: 3, bytes: 0 } }, adding({ graphs: 1 }), 'consignmentGraphs'],
    ['the owner when others filled theirs', { organisation: org(), own: { graphs: 0, bytes: 0 } }, adding({ graphs: 1 }), undefined],
    [
      'another organisation past its own share',
      { organisation: org(), contributor: { graphs: 2, bytes: 0 }, others: { graphs: 2, bytes: 0 } },
      adding({ graphs: 1 }),
      'contributorGraphs',
    ],
    [
      "another organisation past the others' share",
      { organisation: org(), contributor: { graphs: 0, bytes: 0 }, others: { graphs: 4, bytes: 0 } },
      adding({ graphs: 1 }),
      'contributions',
    ],
    [
      "another organisation's bytes",
      { organisation: org(), contributor: { graphs: 0, bytes: 295 }, others: { graphs: 0, bytes: 295 } },
      adding(),
      'contributorBytes',
    ],
    [
      "all others' bytes",
      { organisation: org(), contributor: { graphs: 0, bytes: 0 }, others: { graphs: 0, bytes: 395 } },
      adding(),
      'contributionBytes',
    ],
  ];
  for (const [what, standing, add, bound] of rows) {
    it(`${what}: ${bound ?? 'passes'}`, () => {
      expect(quotaRefusal(limits, standing, add)?.bound).to.equal(bound);
    });
  }

  it('turns a bound of 0 off', () => {
    expect(
      quotaRefusal({ ...limits, consignments: 0 }, { organisation: org({ consignments: 1e9 }) }, adding({ consignments: 1 })),
    ).to.equal(undefined);
  });

  it('reads each bound from its variable, and the README and configuration list them', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const configuration = readFileSync(join(projectRoot, 'docs', 'configuration.md'), 'utf8');
    for (const [name, bound] of Object.entries(QUOTA_BOUNDS)) {
      expect(readQuotaConfig({ [bound.variable]: '7' })[name as keyof QuotaConfig]).to.equal(7);
      expect(readme, bound.variable).to.contain(`| \`${bound.variable}\` | \`${bound.fallback}\``);
      expect(configuration, bound.variable).to.contain(`| \`${bound.variable}\` | \`${bound.fallback}\``);
    }
  });
});
