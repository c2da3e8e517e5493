import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { activity, consignment } from '../helpers/payloads.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { TEST_SEED, TestNode, USERS, type HttpAnswer } from '../helpers/test-node.js';
import { auditRecorder } from '../helpers/audit-recorder.js';

const TOKEN = '/authentication/token';
const CLIENTS = '/supply-chain/data-space/organisation/clients';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const SECRET_CLIENT = 'GB123456789000';
const SECRET = 'forwarder-tms-secret-0123456789abcdef';
const KEY_CLIENT = 'NL000000001';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The test seed with a secret client for the forwarder and a key client for the border agency. */
function seedWithClients(dir: string, jwk: Record<string, unknown>, clients?: unknown[]): string {
  const seed = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as Record<string, unknown>;
  seed.clients = clients ?? [
    { clientId: SECRET_CLIENT, organisation: USERS.forwarder.org, secret: SECRET },
    { clientId: KEY_CLIENT, organisation: USERS.border.org, jwk },
  ];
  const path = join(dir, `seed-${Date.now()}.json`);
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

describe('machine clients: OAuth 2.0 client credentials at /authentication/token', () => {
  let node: TestNode;
  let key: CryptoKey;
  let otherKey: CryptoKey;
  let dir: string;
  let jwk: Record<string, unknown>;
  const audit = auditRecorder();
  const secretToken = async (id = SECRET_CLIENT, secret = SECRET): Promise<HttpAnswer> =>
    node.request('POST', TOKEN, {
      rawBody: form({ grant_type: 'client_credentials' }),
      headers: { ...FORM, authorization: basic(id, secret) },
    });
  const assertion = (claims: Record<string, unknown> = {}, signer: CryptoKey = key, alg = 'ES256') =>
    new SignJWT({ jti: crypto.randomUUID(), ...claims })
      .setProtectedHeader({ alg })
      .setIssuer(KEY_CLIENT)
      .setSubject(KEY_CLIENT)
      .setAudience(`${node.url}${TOKEN}`)
      .setIssuedAt()
      .setExpirationTime('30s')
      .sign(signer);
  const keyToken = async (signed: string): Promise<HttpAnswer> =>
    node.request('POST', TOKEN, {
      rawBody: form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: signed, scope: 'iSHARE' }),
      headers: FORM,
    });

  before(async () => {
    ({ privateKey: otherKey } = await generateKeyPair('ES256'));
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    jwk = await exportJWK(pair.publicKey);
    dir = scratchDir('dataspace-clients-');
    node = await TestNode.start({ DATASPACE_SEED: seedWithClients(dir, jwk) }, undefined, audit.logger);
  });
  after(async () => {
    await node.stop();
  });

  it('issues a Bearer token to client_secret_basic, in the OAuth form, not cached', async () => {
    const res = await secretToken();
    expect(res.status).to.equal(200);
    expect(res.body).to.have.keys('access_token', 'token_type', 'expires_in');
    expect(res.body.token_type).to.equal('Bearer');
    expect(res.body.expires_in).to.be.within(3590, 3600);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.headers.get('set-cookie')).to.equal(null);
  });

  it('lets a client token publish and read exactly what a user of its organisation may', async () => {
    const client = (await secretToken()).body.access_token as string;
    const border = (await keyToken(await assertion())).body.access_token as string;
    const c = consignment();
    const published = await node.request('POST', '/supply-chain/data-space/inbox', {
      token: client,
      body: activity('Create', USERS.forwarder.org, c),
    });
    expect(published.status).to.equal(201);
    const path = `${CONSIGNMENTS}/${encodeURIComponent(c.globalId as string)}`;
    // Not yet shared: the border client is refused like the border user; the forwarder's user reads what its client wrote.
    expect((await node.request('GET', path, { token: border })).status).to.equal(404);
    expect((await node.as('border', 'GET', path)).status).to.equal(404);
    expect((await node.as('forwarder', 'GET', path)).status).to.equal(200);
    // A client registers a policy as its organisation would; publishing as another organisation is refused as for a user.
    expect(
      (
        await node.request('POST', '/supply-chain/data-space/policies', {
          token: client,
          body: { role: 'borderAgency', countries: ['GB'] },
        })
      ).status,
    ).to.equal(201);
    const asOther = await node.request('POST', '/supply-chain/data-space/inbox', {
      token: client,
      body: activity('Create', USERS.otherForwarder.org, consignment()),
    });
    expect(asOther.status)
      .to.equal((await node.publish('forwarder', activity('Create', USERS.otherForwarder.org, consignment()))).status)
      .and.to.be.within(400, 499);
    for (const [token, user] of [
      [client, 'forwarder'],
      [border, 'border'],
    ] as const) {
      const [mine, theirs] = [await node.request('GET', path, { token }), await node.as(user, 'GET', path)];
      expect(mine.status, user).to.equal(200);
      expect(mine.body, user).to.deep.equal(theirs.body);
      const [list, userList] = [await node.request('GET', CONSIGNMENTS, { token }), await node.as(user, 'GET', CONSIGNMENTS)];
      expect(list.body, user).to.deep.equal(userList.body);
    }
    // A client is no admin, and a port client would not be a forwarder: same rules as for users.
    expect((await node.request('GET', CLIENTS, { token: client })).status).to.equal(403);
  });

  const refusals: [string, () => Promise<HttpAnswer>, number, string, RegExp][] = [
    ['a wrong secret', () => secretToken(SECRET_CLIENT, 'wrong-secret'), 401, 'invalid_client', /wrong secret/],
    ['an unknown client', () => secretToken('XX000', SECRET), 401, 'invalid_client', /Unknown client/],
    ['a key client using a secret', () => secretToken(KEY_CLIENT, SECRET), 401, 'invalid_client', /Unknown client or wrong secret/],
    [
      'an assertion signed with another key',
      async () => keyToken(await assertion({}, otherKey)),
      401,
      'invalid_client',
      /not signed by the client's registered key/,
    ],
    [
      'an expired assertion',
      async () =>
        keyToken(
          await new SignJWT({ jti: crypto.randomUUID() })
            .setProtectedHeader({ alg: 'ES256' })
            .setIssuer(KEY_CLIENT)
            .setSubject(KEY_CLIENT)
            .setAudience(`${node.url}${TOKEN}`)
            .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
            .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
            .sign(key),
        ),
      401,
      'invalid_client',
      /expired/,
    ],
    [
      'an assertion for another audience',
      async () =>
        keyToken(
          await new SignJWT({ jti: crypto.randomUUID() })
            .setProtectedHeader({ alg: 'ES256' })
            .setIssuer(KEY_CLIENT)
            .setSubject(KEY_CLIENT)
            .setAudience('https://elsewhere.example/token')
            .setIssuedAt()
            .setExpirationTime('30s')
            .sign(key),
        ),
      401,
      'invalid_client',
      /aud/,
    ],
    [
      'an assertion living two hours',
      async () =>
        keyToken(
          await new SignJWT({ jti: crypto.randomUUID() })
            .setProtectedHeader({ alg: 'ES256' })
            .setIssuer(KEY_CLIENT)
            .setSubject(KEY_CLIENT)
            .setAudience(`${node.url}${TOKEN}`)
            .setIssuedAt()
            .setExpirationTime('2h')
            .sign(key),
        ),
      401,
      'invalid_client',
      /within 3600 s/,
    ],
    [
      'an assertion without jti',
      async () =>
        keyToken(
          await new SignJWT({})
            .setProtectedHeader({ alg: 'ES256' })
            .setIssuer(KEY_CLIENT)
            .setSubject(KEY_CLIENT)
            .setAudience(`${node.url}${TOKEN}`)
            .setIssuedAt()
            .setExpirationTime('30s')
            .sign(key),
        ),
      401,
      'invalid_client',
      /jti/,
    ],
    [
      'an assertion with alg HS256',
      async () =>
        keyToken(
          await new SignJWT({ jti: crypto.randomUUID() })
            .setProtectedHeader({ alg: 'HS256' })
            .setIssuer(KEY_CLIENT)
            .setSubject(KEY_CLIENT)
            .setAudience(`${node.url}${TOKEN}`)
            .setIssuedAt()
            .setExpirationTime('30s')
            .sign(new TextEncoder().encode(JSON.stringify(jwk))),
        ),
      401,
      'invalid_client',
      /signed with ES256/,
    ],
    [
      'a token request without grant_type',
      () => node.request('POST', TOKEN, { rawBody: '', headers: { ...FORM, authorization: basic(SECRET_CLIENT, SECRET) } }),
      400,
      'invalid_request',
      /grant_type/,
    ],
    [
      'grant_type password',
      () =>
        node.request('POST', TOKEN, {
          rawBody: form({ grant_type: 'password' }),
          headers: { ...FORM, authorization: basic(SECRET_CLIENT, SECRET) },
        }),
      400,
      'unsupported_grant_type',
      /client_credentials/,
    ],
    [
      'a JSON body',
      () =>
        node.request('POST', TOKEN, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization: basic(SECRET_CLIENT, SECRET) },
        }),
      400,
      'invalid_request',
      /form-urlencoded/,
    ],
    [
      'no client authentication',
      () => node.request('POST', TOKEN, { rawBody: form({ grant_type: 'client_credentials' }), headers: FORM }),
      401,
      'invalid_client',
      /Authenticate the client/,
    ],
  ];
  for (const [name, send, status, code, description] of refusals) {
    it(`refuses ${name} with ${status} ${code}`, async () => {
      const res = await send();
      expect(res.status).to.equal(status);
      expect(res.body.error).to.equal(code);
      expect(res.body.error_description).to.match(description);
      expect(res.body).to.include({ name: res.status === 401 ? 'UnauthorizedError' : 'BadRequest', message: res.body.error_description });
      expect(res.headers.get('cache-control')).to.equal('no-store');
      if (name === 'a wrong secret') expect(res.headers.get('www-authenticate')).to.match(/^Basic/);
    });
  }

  it('accepts a private_key_jwt assertion once: a replayed jti is refused', async () => {
    const signed = await assertion();
    expect((await keyToken(signed)).status).to.equal(200);
    const replayed = await keyToken(signed);
    expect(replayed.status).to.equal(401);
    expect(replayed.body).to.include({ error: 'invalid_client', error_description: 'client_assertion was used before (jti replayed)' });
  });

  it('lets an admin register, rotate and remove its clients, with an overlap window, and nothing of another organisation', async () => {
    const admin = await node.login('forwarder');
    const made = await node.request('POST', CLIENTS, { token: admin, body: { clientId: 'GB999' } });
    expect(made.status).to.equal(201);
    expect(made.body).to.include({ clientId: 'GB999', managedBy: 'organisation' }).and.to.have.property('clientSecret').that.is.a('string');
    expect(made.body.authentication).to.deep.equal(['client_secret_basic']);
    const first = made.body.clientSecret as string;
    const token = (await secretToken('GB999', first)).body.access_token as string;
    expect((await node.request('GET', CONSIGNMENTS, { token })).status).to.equal(200);
    const rotated = await node.request('POST', `${CLIENTS}/GB999/secret`, { token: admin });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.previousSecretExpires).to.be.within(Date.now() + 86_000_000, Date.now() + 86_400_000);
    expect((await secretToken('GB999', rotated.body.clientSecret)).status).to.equal(200);
    expect((await secretToken('GB999', first)).status, 'the old secret in its overlap window').to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token })).status, 'a rotation leaves tokens alone').to.equal(200);
    const list = await node.request('GET', CLIENTS, { token: admin });
    expect(list.body.map((c: { clientId: string }) => c.clientId)).to.deep.equal(['GB123456789000', 'GB999']);
    expect(JSON.stringify(list.body)).to.not.contain(first);

    const other = await node.login('otherForwarder');
    for (const [method, path] of [
      ['GET', `${CLIENTS}/GB999`],
      ['POST', `${CLIENTS}/GB999/secret`],
      ['DELETE', `${CLIENTS}/GB999`],
    ]) {
      expect((await node.request(method!, path!, { token: other })).status, `${method} ${path}`).to.equal(404);
    }
    expect((await node.request('GET', CLIENTS, { token: other })).body).to.deep.equal([]);
    expect((await node.request('POST', CLIENTS, { token: other, body: { clientId: 'GB999' } })).status).to.equal(409);
    for (const body of [
      { clientId: 'x' },
      { clientId: 'GB1', jwk: { kty: 'oct', k: 'c2VjcmV0' } },
      { clientId: 'GB1', jwk: { ...jwk, d: 'private' } },
      { clientId: 'GB1', extra: 1 },
    ]) {
      expect((await node.request('POST', CLIENTS, { token: admin, body })).status, JSON.stringify(body)).to.equal(400);
    }
    expect((await node.request('DELETE', `${CLIENTS}/GB999`, { token: admin })).status).to.equal(204);
    expect((await node.request('GET', CONSIGNMENTS, { token })).status, "a removed client's token").to.equal(401);
    expect((await secretToken('GB999', rotated.body.clientSecret)).status).to.equal(401);
    expect(audit.lines.filter((l) => l.account === 'GB999').map((l) => l.action)).to.deep.equal([
      'registered',
      'secret-rotated',
      'removed',
    ]);
  });

  it('ends a client token on logout; a user who is no admin cannot list clients', async () => {
    const admin = await node.as('border', 'GET', CLIENTS);
    expect(admin.status, 'the border officer is no admin').to.equal(403);
    const token = (await secretToken()).body.access_token as string;
    expect((await node.request('GET', '/authentication/logout', { token })).status).to.equal(204);
    expect((await node.request('GET', CONSIGNMENTS, { token })).status).to.equal(401);
  });

  it('keeps API clients and their tokens across a restart, and ends those of a client the seed drops', async () => {
    const admin = await node.login('forwarder');
    const made = await node.request('POST', CLIENTS, { token: admin, body: { clientId: 'GB-KEY-1', jwk } });
    expect(made.status).to.equal(201);
    expect(made.body).to.not.have.property('clientSecret');
    const apiToken = (
      await keyToken(
        await new SignJWT({ jti: crypto.randomUUID() })
          .setProtectedHeader({ alg: 'ES256' })
          .setIssuer('GB-KEY-1')
          .setSubject('GB-KEY-1')
          .setAudience(`${node.url}${TOKEN}`)
          .setIssuedAt()
          .setExpirationTime('30s')
          .sign(key),
      )
    ).body.access_token as string;
    const seedToken = (await secretToken()).body.access_token as string;
    expect(apiToken).to.be.a('string');
    await node.stop(false);
    node = await TestNode.start(
      { DATASPACE_SEED: seedWithClients(dir, jwk, [{ clientId: KEY_CLIENT, organisation: USERS.border.org, jwk }]) },
      node.config.dataDir,
      audit.logger,
    );
    expect((await node.request('GET', CONSIGNMENTS, { token: apiToken })).status).to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token: seedToken })).status).to.equal(401);
    expect((await secretToken()).status).to.equal(401);
    expect(audit.lines).to.deep.include({
      audit: 'account',
      kind: 'client',
      action: 'removed',
      account: SECRET_CLIENT,
      organisation: USERS.forwarder.org,
      by: 'seed',
      tokensEnded: true,
    });
  });
});

describe('machine clients: a rotated secret ends with its overlap window', () => {
  it('refuses the previous secret once DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS has passed', async () => {
    const node = await TestNode.start({ DATASPACE_CLIENT_SECRET_OVERLAP_SECONDS: '1' });
    try {
      const admin = await node.login('forwarder');
      const first = (await node.request('POST', CLIENTS, { token: admin, body: { clientId: 'GB777' } })).body.clientSecret as string;
      await node.request('POST', `${CLIENTS}/GB777/secret`, { token: admin });
      const ask = () =>
        node.request('POST', TOKEN, {
          rawBody: form({ grant_type: 'client_credentials' }),
          headers: { ...FORM, authorization: basic('GB777', first) },
        });
      expect((await ask()).status).to.equal(200);
      await new Promise((ok) => setTimeout(ok, 1_500));
      expect((await ask()).status).to.equal(401);
    } finally {
      await node.stop();
    }
  });
});
