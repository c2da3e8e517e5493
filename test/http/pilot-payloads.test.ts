import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, newGlobalId } from '../helpers/payloads.js';

const DIR = resolve(projectRoot, 'test', 'fixtures', 'pilots');
const VALIDATE = '/supply-chain/data-space/validate';

interface Fixture {
  description: string;
  verdict: {
    keepIds?: boolean;
    validate: { conforms: boolean; warnings?: string[] };
    inbox: { status: number; messageIncludes?: string; warnings?: string[] };
  };
  object: Record<string, unknown>;
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, fixture: JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Fixture }));

describe('pilot-shaped payloads (test/fixtures/pilots): each answers with its expected verdict', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  it('has a corpus with accepted, warned and refused payloads', () => {
    expect(fixtures.length).to.be.at.least(8);
    expect(
      fixtures.some(({ fixture }) => fixture.verdict.inbox.status === 201 && (fixture.verdict.inbox.warnings ?? []).length > 0),
    ).to.equal(true);
    expect(fixtures.some(({ fixture }) => fixture.verdict.inbox.status === 422)).to.equal(true);
  });

  for (const { file, fixture } of fixtures) {
    it(`${file}: ${fixture.description}`, async () => {
      const object = fixture.verdict.keepIds
        ? fixture.object
        : { ...fixture.object, identifier: `PILOT-${newGlobalId().slice(-12)}`, globalId: newGlobalId() };
      const validated = await node.as('forwarder', 'POST', VALIDATE, object);
      expect(validated.status, validated.text).to.equal(200);
      expect(validated.body.conforms, validated.text).to.equal(fixture.verdict.validate.conforms);
      if (fixture.verdict.validate.warnings) {
        const warnings = validated.body.results.filter((r: any) => r.severity === 'Warning').map((r: any) => r.path);
        expect(warnings).to.deep.equal(fixture.verdict.validate.warnings);
      }
      const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, object));
      expect(res.status, res.text).to.equal(fixture.verdict.inbox.status);
      if (fixture.verdict.inbox.messageIncludes) expect(res.text).to.contain(fixture.verdict.inbox.messageIncludes);
      if (res.status === 201) {
        expect(res.body.status, res.text).to.equal('completed');
        expect((res.body.warnings ?? []).map((w: any) => w.path)).to.deep.equal(fixture.verdict.inbox.warnings ?? []);
        const view = await node.as(
          'forwarder',
          'GET',
          `/supply-chain/data-space/consignments/${encodeURIComponent(String(object.globalId))}`,
        );
        expect(view.status).to.equal(200);
        // What was sent as an array reads back as one, in the order sent.
        for (const [key, value] of Object.entries(object)) {
          if (Array.isArray(value) && key !== 'includedConsignment')
            expect(view.body[key], key).to.be.an('array').with.length(value.length);
        }
      }
    });
  }
});
