import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { projectRoot } from '../../src/core/project-paths.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { TEST_SEED, TestNode, USERS, type HttpAnswer } from '../helpers/test-node.js';

const run = promisify(execFile);
const TOKEN = '/authentication/token';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const KEY_CLIENT = 'NL000000001';
const OTHER_KEY_CLIENT = 'GB000000002';
const SECRET_CLIENT = 'GB123456789000';
const SECRET = 'forwarder-tms-secret-0123456789abcdef';
// Debian's python3 with python3-authlib and python3-requests-oauthlib (.ci/run installs them).
const PYTHON = '/usr/bin/python3';
const REPLAY_PER_ORG = 4;

/** The blocks of docs/accounts.md marked `<!-- tested: name -->`, by name. */
function testedBlocks(): Map<string, string> {
  const text = readFileSync(join(projectRoot, 'docs', 'accounts.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const [, name, code] of text.matchAll(/<!-- tested: ([\w-]+) -->\n```\w+\n([\s\S]*?)```/g)) blocks.set(name!, code!);
  return blocks;
}

type Runner = (code: string, env: NodeJS.ProcessEnv, dir: string) => Promise<string>;
const python: Runner = async (code, env) => (await run(PYTHON, ['-c', code], { env })).stdout;
/** A module beside the project's node_modules, so `openid-client` resolves as in a user's project. */
const nodeModule: Runner = async (code, env, dir) => {
  const file = join(projectRoot, 'dist', `snippet-${dir.split('-').at(-1)}.mjs`);
  writeFileSync(file, code);
  try {
    return (await run(process.execPath, [file], { env })).stdout;
  } finally {
    rmSync(file, { force: true });
  }
};
const SNIPPETS: Record<string, Runner> = {
  'authlib-private-key-jwt': python,
  'requests-oauthlib-secret': python,
  'openid-client-private-key-jwt': nodeModule,
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('OAuth as libraries expect it: metadata, audiences, lifetimes, replay and future iat', function () {
  this.timeout(120_000);
  let node: TestNode;
  let env: NodeJS.ProcessEnv;
  let key: CryptoKey;
  let seed: string;
  const blocks = testedBlocks();

  const signed = (
    client: string,
    { aud, iat, exp, jti }: { aud?: string; iat?: number; exp?: number | string; jti?: string } = {},
  ): Promise<string> =>
    new SignJWT({ jti: jti ?? crypto.randomUUID() })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(client)
      .setSubject(client)
      .setAudience(aud ?? `${node.url}${TOKEN}`)
      .setIssuedAt(iat)
      .setExpirationTime(exp ?? '60s')
      .sign(key);
  const keyToken = (assertion: string): Promise<HttpAnswer> =>
    node.request('POST', TOKEN, {
      rawBody: form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: assertion }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const refusedWith = (answer: HttpAnswer, description: RegExp) => {
    expect(answer.status, JSON.stringify(answer.body)).to.equal(401);
    expect(answer.body.error).to.equal('invalid_client');
    expect(answer.body.error_description).to.match(description);
  };

  before(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    key = pair.privateKey;
    const jwk = await exportJWK(pair.publicKey);
    const dir = scratchDir('oauth-clients-');
    const seeded = JSON.parse(readFileSync(TEST_SEED, 'utf8')) as Record<string, unknown>;
    seeded.clients = [
      { clientId: KEY_CLIENT, organisation: USERS.border.org, jwk },
      { clientId: OTHER_KEY_CLIENT, organisation: USERS.forwarder.org, jwk },
      { clientId: SECRET_CLIENT, organisation: USERS.forwarder.org, secret: SECRET },
    ];
    seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(seeded));
    node = await TestNode.start({ DATASPACE_SEED: seed, DATASPACE_ASSERTION_REPLAY_PER_ORG: String(REPLAY_PER_ORG) });
    env = {
      PATH: process.env.PATH,
      NODE_URL: node.url,
      CLIENT_ID: KEY_CLIENT,
      CLIENT_KEY_PEM: await exportPKCS8(pair.privateKey),
      CLIENT_KEY_JWK: JSON.stringify({ ...(await exportJWK(pair.privateKey)), alg: 'RS256' }),
      SECRET_CLIENT_ID: SECRET_CLIENT,
      CLIENT_SECRET: SECRET,
      AUTHLIB_INSECURE_TRANSPORT: '1',
      OAUTHLIB_INSECURE_TRANSPORT: '1',
    };
  });
  after(async () => {
    await node?.stop();
  });

  it('publishes RFC 8414 metadata at both well-known paths, without a token', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const answer = await node.request('GET', path);
      expect(answer.status, path).to.equal(200);
      expect(answer.body).to.include({ issuer: node.url, token_endpoint: `${node.url}${TOKEN}` });
      expect(answer.body.token_endpoint_auth_methods_supported).to.deep.equal(['client_secret_basic', 'private_key_jwt']);
      expect(answer.body.token_endpoint_auth_signing_alg_values_supported).to.include.members(['RS256', 'ES256', 'EdDSA']);
      expect(answer.body.grant_types_supported).to.deep.equal(['client_credentials']);
    }
  });

  it('marks exactly the snippets this test knows how to run', () => {
    expect([...blocks.keys()].sort()).to.deep.equal(Object.keys(SNIPPETS).sort());
  });

  // Each snippet fills one replay-cache entry of its client's organisation: run them on a fresh share.
  for (const [name, runner] of Object.entries(SNIPPETS)) {
    it(`runs docs/accounts.md's ${name} as written: a token, then a read with it`, async () => {
      const code = blocks.get(name);
      expect(code, `no block marked tested: ${name}`).to.be.a('string');
      expect((await runner(code!, env, scratchDir(`snippet-${name}-`))).trim()).to.equal('200');
    });
  }

  it("takes aud = the issuer or the token endpoint, an hour's life, each jti once; refuses other audiences and longer lives", async () => {
    const hour = await signed(OTHER_KEY_CLIENT, { aud: node.url, exp: '1h' });
    expect((await keyToken(hour)).status).to.equal(200);
    refusedWith(await keyToken(hour), /jti replayed/);
    refusedWith(await keyToken(await signed(OTHER_KEY_CLIENT, { aud: `${node.url}/elsewhere` })), /aud/);
    refusedWith(await keyToken(await signed(OTHER_KEY_CLIENT, { exp: '2h' })), /within 3600 s/);
  });

  it("one organisation's clients filling their replay share leave another organisation's clients served", async () => {
    // The border agency's share may already hold the snippets' entries; fill it to the bound.
    let filled = 0;
    for (let i = 0; i < REPLAY_PER_ORG + 1; i++) {
      const answer = await keyToken(await signed(KEY_CLIENT, { exp: '1h' }));
      if (answer.status === 200) filled++;
      else refusedWith(answer, /Too many client assertions in flight/);
    }
    expect(filled).to.be.at.most(REPLAY_PER_ORG);
    refusedWith(await keyToken(await signed(KEY_CLIENT)), /Too many client assertions in flight/);
    // The forwarder's key client has its own share (one entry from the test before).
    const other = await keyToken(await signed(OTHER_KEY_CLIENT));
    expect(other.status, JSON.stringify(other.body)).to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token: other.body.access_token })).status).to.equal(200);
  });

  it('refuses an assertion issued two minutes ahead, and again after a restart', async () => {
    const ahead = () => {
      const iat = Math.floor(Date.now() / 1000) + 120;
      return signed(OTHER_KEY_CLIENT, { iat, exp: iat + 60 });
    };
    refusedWith(await keyToken(await ahead()), /issued in the future/);
    // Issued after the restart's start, it passes the "issued before this node started" check: refused all the same.
    await node.stop(false);
    node = await TestNode.start({ DATASPACE_SEED: seed, DATASPACE_ASSERTION_REPLAY_PER_ORG: String(REPLAY_PER_ORG) }, node.config.dataDir);
    refusedWith(await keyToken(await ahead()), /issued in the future/);
    // A clock a few seconds ahead is within the skew.
    const now = Math.floor(Date.now() / 1000) + 3;
    expect((await keyToken(await signed(OTHER_KEY_CLIENT, { iat: now, exp: now + 60 }))).status).to.equal(200);
  });
});
