import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_SEED, TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target, type Json } from '../helpers/payloads.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { SignalReceiver, testSecret } from '../helpers/signal-receiver.js';

const BASE = '/supply-chain/data-space';
const CLIENT = 'GB555000999000';
const SECRET = 'pilot-client-secret-0123456789abcdef';

/** The test seed with one secret client for the forwarder. */
function seedWithClient(): string {
  const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as Json;
  seed.clients = [{ clientId: CLIENT, organisation: USERS.forwarder.org, secret: SECRET }];
  const path = join(scratchDir('dataspace-pilot-seed-'), 'seed.json');
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

describe('one rule for refusals and parameters (issue 47)', () => {
  let node: TestNode;
  let border: SignalReceiver;
  before(async () => {
    node = await TestNode.start({ DATASPACE_SEED: seedWithClient(), DATASPACE_NOTIFY_RETRY_MS: '20' });
    border = await SignalReceiver.start();
    const res = await node.as('border', 'PUT', `${BASE}/notification-endpoint`, { url: border.url, secret: testSecret('border') });
    expect(res.status, res.text).to.equal(200);
  });
  after(async () => {
    await node.stop();
    await border.close();
  });

  const expectBadRequest = (res: { status: number; body: Json; text: string }, names: string) => {
    expect(res.status, res.text).to.equal(400);
    expect(res.body.name).to.equal('BadRequest');
    expect(res.body.message).to.contain(names);
  };

  describe('an actor or target without @context, a registeredId without @value: 400 (issue row 6)', () => {
    const cases: [string, (a: Json) => void, string][] = [
      ['an actor without @context', (a) => delete a.actor['@context'], 'actor.@context'],
      ['an actor without registeredId', (a) => delete a.actor.registeredId, 'actor.registeredId'],
      ['a registeredId without @value', (a) => delete a.actor.registeredId['@value'], 'actor.registeredId.@value'],
    ];
    for (const [name, spoil, names] of cases) {
      it(`answers 400 BadRequest naming ${names} for ${name}, and stores nothing`, async () => {
        const c = consignment();
        const a = activity('Create', USERS.forwarder.org, c);
        spoil(a);
        expectBadRequest(await node.publish('forwarder', a), names);
        expect((await node.as('forwarder', 'GET', `${BASE}/consignments/${encodeURIComponent(c.globalId)}`)).status).to.equal(404);
      });
    }

    it('answers 400 BadRequest naming target.@context for a target without @context', async () => {
      const c = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      const { '@context': _context, ...bare } = target(c);
      expectBadRequest(
        await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), bare)),
        'target.@context',
      );
      expect((await node.as('forwarder', 'GET', `${BASE}/consignments/${encodeURIComponent(c.globalId)}`)).body.events).to.deep.equal([]);
    });
  });

  describe('every list refuses a parameter it does not take (issue row 7)', () => {
    const cases: [string, string][] = [
      ['/documents?stauts=published', 'stauts'],
      ['/signals?typ=PreNotification', 'typ'],
      ['/changes?cursor=abc', 'cursor'],
      ['/consignments?foo=1', 'foo'],
    ];
    for (const [path, parameter] of cases) {
      it(`answers 400 naming ${parameter} for ${path}`, async () => {
        const res = await node.as('border', 'GET', `${BASE}${path}`);
        expectBadRequest(res, `${parameter} is not a parameter of this list`);
      });
    }

    // The lists that take no parameter at all, by the caller each is for (an admin, the forwarder, the publisher).
    it("answers 400 naming the parameter on the lists that take none: policies, users, clients, a consignment's documents and deliveries", async () => {
      const c = consignment();
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      const id = encodeURIComponent(c.globalId);
      for (const path of [
        '/policies',
        '/organisation/users',
        '/organisation/clients',
        `/consignments/${id}/documents`,
        `/consignments/${id}/deliveries`,
      ]) {
        const plain = await node.as('forwarder', 'GET', `${BASE}${path}`);
        expect(plain.status, `${path}: ${plain.text}`).to.equal(200);
        expect(plain.body, path).to.be.an('array');
        const refused = await node.as('forwarder', 'GET', `${BASE}${path}?limit=5`);
        expectBadRequest(refused, 'limit is not a parameter of this list; it takes none');
      }
      // The access step runs first: a consignment the caller may not read, or none, answers the same 404 whatever the parameters.
      const hidden = await node.as('border', 'GET', `${BASE}/consignments/${id}/deliveries?x=1`);
      const missing = await node.as('border', 'GET', `${BASE}/consignments/no-such-thing/deliveries?x=1`);
      expect([hidden.status, missing.status]).to.deep.equal([404, 404]);
      expect(hidden.body.name).to.equal(missing.body.name);
    });

    it('still answers the parameters each list takes', async () => {
      for (const path of [
        '/documents?limit=5&status=published&location=GBFXT&scope=all',
        '/documents?limit=5&consignmentId=nothing-here',
        '/signals?type=PreNotification&since=2026-01-01&until=2030-01-01T00:00:00Z&limit=5',
        '/changes?limit=5',
      ]) {
        const res = await node.as('forwarder', 'GET', `${BASE}${path}`);
        expect(res.status, `${path}: ${res.text}`).to.be.oneOf([200, 404]);
      }
    });
  });

  describe('dates read one way on every list (issue row 8)', () => {
    for (const [path, parameter] of [
      ['/signals?since=2026-02-30T00:00:00Z', 'since'],
      ['/signals?until=2026-02-30', 'until'],
      ['/consignments?updatedSince=2026-02-30T00:00:00Z', 'updatedSince'],
    ]) {
      it(`refuses 2026-02-30 in ${parameter} with 400 (${path})`, async () => {
        expectBadRequest(await node.as('border', 'GET', `${BASE}${path}`), `${parameter} must be a date-time`);
      });
    }

    it('reads since and updatedSince with an unencoded +01:00 as meant, the same as encoded', async () => {
      const c = consignment();
      const before = new Date(Date.now() - 60_000);
      expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
      await border.until((r) => r.some((x) => x.json?.consignment?.globalId === c.globalId));
      const after = new Date(Date.now() + 60_000);
      // 09:00+01:00 is 08:00Z: the local time an hour ahead of UTC, as a client in Paris writes it.
      const local = (d: Date) => `${new Date(d.getTime() + 3_600_000).toISOString().slice(0, 19)}+01:00`;
      for (const [list, parameter, user, has] of [
        ['signals', 'since', 'border', (items: Json[]) => items.some((s) => s.globalId === c.globalId)],
        ['consignments', 'updatedSince', 'forwarder', (items: Json[]) => items.some((x) => x.globalId === c.globalId)],
      ] as const) {
        for (const [at, expected] of [
          [before, true],
          [after, false],
        ] as const) {
          const unencoded = await node.as(user, 'GET', `${BASE}/${list}?${parameter}=${local(at)}`);
          const encoded = await node.as(user, 'GET', `${BASE}/${list}?${parameter}=${encodeURIComponent(local(at))}`);
          expect(unencoded.status, unencoded.text).to.equal(200);
          expect(has(unencoded.body), `${list} ${parameter}=${local(at)}`).to.equal(expected);
          expect(unencoded.body).to.deep.equal(encoded.body);
        }
      }
    });
  });

  describe("the token endpoint's errors carry the node's names beside RFC 6749's error (issue row 9)", () => {
    const basic = (secret: string) => `Basic ${Buffer.from(`${CLIENT}:${secret}`).toString('base64')}`;
    const token = (body: string, secret?: string) =>
      node.request('POST', '/authentication/token', {
        rawBody: body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(secret ? { authorization: basic(secret) } : {}) },
      });

    it('a wrong client secret: 401 UnauthorizedError with error invalid_client', async () => {
      const res = await token('grant_type=client_credentials', 'wrong-secret');
      expect(res.status).to.equal(401);
      expect(res.body).to.include({ name: 'UnauthorizedError', error: 'invalid_client' });
      expect(res.body.message).to.equal(res.body.error_description);
    });

    it('a malformed request: 400 BadRequest with error invalid_request / unsupported_grant_type', async () => {
      const missing = await token('', SECRET);
      expect(missing.status).to.equal(400);
      expect(missing.body).to.include({ name: 'BadRequest', error: 'invalid_request' });
      const grant = await token('grant_type=password', SECRET);
      expect(grant.status).to.equal(400);
      expect(grant.body).to.include({ name: 'BadRequest', error: 'unsupported_grant_type' });
    });

    it('the right secret still gets a token', async () => {
      const res = await token('grant_type=client_credentials', SECRET);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.token_type).to.equal('Bearer');
    });
  });
});
