import { expect } from 'chai';
import { auditRecorder } from '../helpers/audit-recorder.js';
import { logIn, TestNode, USERS } from '../helpers/test-node.js';
import { captured } from '../helpers/present.js';

const PATH = '/supply-chain/data-space/organisation/users';
const CONSIGNMENTS = '/supply-chain/data-space/consignments';
const item = (email: string) => `${PATH}/${encodeURIComponent(email)}`;

const login = (node: TestNode, email: string, password: string) =>
  node.request('POST', '/authentication/login', { body: { email, password } });
const tokenOf = (res: { headers: Headers }) => captured(/access_token=([^;]+)/, res.headers.get('set-cookie') ?? '');

describe("organisation admins manage their own organisation's users", () => {
  let node: TestNode;
  let admin: string;
  const audit = auditRecorder();
  before(async () => {
    node = await TestNode.start({}, undefined, audit.logger);
    admin = await node.login('forwarder');
  });
  after(async () => {
    await node.stop();
  });

  it("lists only the caller's organisation, and only to its admins", async () => {
    const list = await node.request('GET', PATH, { token: admin });
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.equal([
      { email: USERS.forwarder.email, admin: true, disabled: false, managedBy: 'seed', href: `${node.url}${item(USERS.forwarder.email)}` },
    ]);
    for (const user of ['border', 'port'] as const) {
      const refused = await node.as(user, 'GET', PATH);
      expect(refused.status, user).to.equal(403);
      expect(refused.body.name).to.equal('Forbidden');
    }
  });

  it('adds a user who logs in and reads as its organisation, and is no admin unless made one', async () => {
    const added = await node.request('POST', PATH, {
      token: admin,
      body: { email: 'Clerk@Forwarder.example', password: 'clerk-password-1' },
    });
    expect(added.status).to.equal(201);
    expect(added.headers.get('location')).to.equal(`${node.url}${item('clerk@forwarder.example')}`);
    expect(added.body).to.include({ email: 'clerk@forwarder.example', admin: false, disabled: false, managedBy: 'organisation' });
    const session = await login(node, 'clerk@forwarder.example', 'clerk-password-1');
    expect(session.status).to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token: tokenOf(session) })).status).to.equal(200);
    expect((await node.request('GET', PATH, { token: tokenOf(session) })).status, 'not an admin').to.equal(403);
    expect((await node.request('GET', PATH, { token: admin })).body.map((u: { email: string }) => u.email)).to.deep.equal([
      'clerk@forwarder.example',
      USERS.forwarder.email,
    ]);
    expect(audit.lines).to.deep.include({
      audit: 'account',
      kind: 'user',
      action: 'created',
      account: 'clerk@forwarder.example',
      organisation: USERS.forwarder.org,
      by: USERS.forwarder.email,
      tokensEnded: false,
    });
  });

  const malformed: [string, unknown, number][] = [
    ['an email taken by another organisation', { email: USERS.border.email, password: 'long-enough-pass' }, 409],
    ['no email', { password: 'long-enough-pass' }, 400],
    ['a malformed email', { email: 'not an email', password: 'long-enough-pass' }, 400],
    ['a short password', { email: 'short@forwarder.example', password: 'short' }, 400],
    ['a non-boolean admin', { email: 'x@forwarder.example', password: 'long-enough-pass', admin: 'yes' }, 400],
    ['an unknown field', { email: 'x@forwarder.example', password: 'long-enough-pass', organisation: USERS.border.org }, 400],
    ['an array', [], 400],
  ];
  for (const [name, body, status] of malformed) {
    it(`answers ${status} for a new user with ${name}, adding nothing`, async () => {
      const res = await node.request('POST', PATH, { token: admin, body });
      expect(res.status).to.equal(status);
      expect(res.body).to.have.keys('name', 'message');
      expect((await node.request('GET', PATH, { token: admin })).body).to.have.length(2);
    });
  }

  it('cannot see, change or remove a user of another organisation: answered as missing, nothing changed', async () => {
    const other = USERS.otherForwarder.email;
    const attempts: [string, string, unknown][] = [
      ['GET', item(other), undefined],
      ['PATCH', item(other), { disabled: true }],
      ['PATCH', item(other), { password: 'taken-over-pass' }],
      ['DELETE', item(other), undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await node.request(method, path, { token: admin, body });
      expect(res.status, `${method} ${JSON.stringify(body)}`).to.equal(404);
      expect(res.body).to.deep.equal({ name: 'NotFound', message: `No user ${other} in your organisation` });
    }
    expect((await login(node, other, USERS.otherForwarder.password)).status).to.equal(200);
    expect((await node.as('otherForwarder', 'GET', PATH)).body.map((u: { email: string }) => u.email)).to.deep.equal([other]);
  });

  it("resets a password, disables and enables, each ending the user's tokens at once", async () => {
    const email = 'clerk@forwarder.example';
    const old = tokenOf(await login(node, email, 'clerk-password-1'));
    const reset = await node.request('PATCH', item(email), { token: admin, body: { password: 'clerk-password-2' } });
    expect(reset.status).to.equal(200);
    expect((await node.request('GET', CONSIGNMENTS, { token: old })).status).to.equal(401);
    expect((await login(node, email, 'clerk-password-1')).status).to.equal(401);
    const fresh = tokenOf(await login(node, email, 'clerk-password-2'));

    expect((await node.request('PATCH', item(email), { token: admin, body: { disabled: true } })).body.disabled).to.equal(true);
    expect((await node.request('GET', CONSIGNMENTS, { token: fresh })).status).to.equal(401);
    const refused = await login(node, email, 'clerk-password-2');
    expect(refused.status).to.equal(401);
    expect(refused.body.message).to.match(/disabled/);
    expect((await login(node, email, 'wrong-password-x')).body.message, 'a wrong password says nothing of the state').to.equal(
      'Wrong email or password',
    );
    expect((await node.request('PATCH', item(email), { token: admin, body: { disabled: false } })).status).to.equal(200);
    expect((await login(node, email, 'clerk-password-2')).status).to.equal(200);
    const actions = audit.lines.filter((l) => l.account === email).map((l) => l.action);
    expect(actions).to.include.members(['password-reset', 'disabled', 'enabled']);
  });

  it('refuses to let an admin lock itself out (409), and refuses malformed changes (400)', async () => {
    for (const body of [{ disabled: true }, { admin: false }])
      expect((await node.request('PATCH', item(USERS.forwarder.email), { token: admin, body })).status).to.equal(409);
    expect((await node.request('DELETE', item(USERS.forwarder.email), { token: admin })).status).to.equal(409);
    for (const body of [{}, { disabled: 'yes' }, { password: 'short' }, { email: 'x@y.example' }]) {
      const res = await node.request('PATCH', item('clerk@forwarder.example'), { token: admin, body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
    }
    expect(await logIn(node.url, 'forwarder')).to.be.a('string');
  });

  it('removes a user: its tokens end and it cannot log in', async () => {
    const email = 'clerk@forwarder.example';
    const token = tokenOf(await login(node, email, 'clerk-password-2'));
    expect((await node.request('DELETE', item(email), { token: admin })).status).to.equal(204);
    expect((await node.request('GET', CONSIGNMENTS, { token })).status).to.equal(401);
    expect((await login(node, email, 'clerk-password-2')).status).to.equal(401);
    expect((await node.request('DELETE', item(email), { token: admin })).status).to.equal(404);
    expect(audit.lines).to.deep.include({
      audit: 'account',
      kind: 'user',
      action: 'removed',
      account: email,
      organisation: USERS.forwarder.org,
      by: USERS.forwarder.email,
      tokensEnded: true,
    });
  });
});

describe("organisation admins: changes survive a restart, and the seed stays the operator's", () => {
  it('keeps added, disabled and reset users across a restart on the same seed', async () => {
    const first = await TestNode.start();
    const admin = await first.login('forwarder');
    await first.request('POST', PATH, {
      token: admin,
      body: { email: 'kept@forwarder.example', password: 'kept-password-1', admin: true },
    });
    await first.request('POST', PATH, { token: admin, body: { email: 'off@forwarder.example', password: 'off-password-1' } });
    const offToken = tokenOf(await login(first, 'off@forwarder.example', 'off-password-1'));
    await first.request('PATCH', item('off@forwarder.example'), { token: admin, body: { disabled: true } });
    const otherAdmin = await first.login('otherForwarder');
    // An admin resets a seed user's password: the seed, unchanged, does not undo it.
    await first.request('POST', PATH, {
      token: otherAdmin,
      body: { email: 'second@other-forwarder.example', password: 'second-password', admin: true },
    });
    const second = tokenOf(await login(first, 'second@other-forwarder.example', 'second-password'));
    expect(
      (await first.request('PATCH', item(USERS.otherForwarder.email), { token: second, body: { password: 'reset-by-admin-1' } })).status,
    ).to.equal(200);
    await first.stop(false);

    const again = await TestNode.start({}, first.config.dataDir);
    try {
      expect(
        (await again.request('GET', PATH, { token: admin })).body.map((u: { email: string; disabled: boolean; admin: boolean }) => [
          u.email,
          u.admin,
          u.disabled,
        ]),
      ).to.deep.equal([
        ['kept@forwarder.example', true, false],
        ['off@forwarder.example', false, true],
        [USERS.forwarder.email, true, false],
      ]);
      expect((await login(again, 'kept@forwarder.example', 'kept-password-1')).status).to.equal(200);
      expect((await login(again, 'off@forwarder.example', 'off-password-1')).status).to.equal(401);
      expect((await again.request('GET', CONSIGNMENTS, { token: offToken })).status).to.equal(401);
      expect((await login(again, USERS.otherForwarder.email, USERS.otherForwarder.password)).status).to.equal(401);
      expect((await login(again, USERS.otherForwarder.email, 'reset-by-admin-1')).status).to.equal(200);
    } finally {
      await again.stop();
    }
  });
});

describe('organisation admins: the console page', () => {
  let node: TestNode;
  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  const page = async (token: string, path = '/console/users') =>
    node.request('GET', path, { headers: { cookie: `access_token=${token}` } });
  const post = (token: string, path: string, fields: Record<string, string>) =>
    node.request('POST', path, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { cookie: `access_token=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    });

  it("adds, disables and removes users of the admin's organisation, ending their sessions, and nothing elsewhere", async () => {
    const admin = await node.login('forwarder');
    const shown = await page(admin);
    expect(shown.status).to.equal(200);
    expect(shown.text).to.contain(`data-user="${USERS.forwarder.email}"`);
    const csrf = captured(/name="_csrf" value="([^"]+)"/, shown.text);
    expect(
      (await post(admin, '/console/users', { _csrf: csrf, email: 'desk2@forwarder.example', password: 'desk2-password' })).status,
    ).to.equal(303);
    expect((await page(admin)).text).to.contain('data-user="desk2@forwarder.example"');
    const session = tokenOf(await login(node, 'desk2@forwarder.example', 'desk2-password'));
    expect((await post(admin, `/console/users/${encodeURIComponent('desk2@forwarder.example')}/disable`, { _csrf: csrf })).status).to.equal(
      303,
    );
    expect((await node.request('GET', CONSIGNMENTS, { token: session })).status).to.equal(401);
    // Without the session's anti-forgery token nothing changes.
    expect((await post(admin, `/console/users/${encodeURIComponent('desk2@forwarder.example')}/remove`, {})).status).to.equal(403);
    expect((await post(admin, `/console/users/${encodeURIComponent('desk2@forwarder.example')}/remove`, { _csrf: csrf })).status).to.equal(
      303,
    );
    expect((await page(admin)).text).to.not.contain('desk2@forwarder.example');
    const elsewhere = await post(admin, `/console/users/${encodeURIComponent(USERS.otherForwarder.email)}/remove`, { _csrf: csrf });
    expect(elsewhere.status).to.equal(404);
    expect((await login(node, USERS.otherForwarder.email, USERS.otherForwarder.password)).status).to.equal(200);
    const short = await post(admin, '/console/users', { _csrf: csrf, email: 'desk3@forwarder.example', password: 'short' });
    expect(short.status).to.equal(400);
    expect(short.text).to.contain('password must be').and.to.contain('value="desk3@forwarder.example"');
  });

  it('is not shown to, and refused for, a user who is not an admin', async () => {
    const border = await node.login('border');
    expect((await page(border, '/console/consignments')).text).to.not.contain('href="/console/users"');
    expect((await page(await node.login('forwarder'), '/console/consignments')).text).to.contain('href="/console/users"');
    expect((await page(border)).status).to.equal(403);
  });
});
