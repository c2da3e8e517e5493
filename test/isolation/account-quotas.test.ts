import { expect } from 'chai';
import { TestNode } from '../helpers/test-node.js';
import { publishOwn } from './neighbours.js';

const USERS_PATH = '/supply-chain/data-space/organisation/users';
const CLIENTS_PATH = '/supply-chain/data-space/organisation/clients';
const MAX_USERS = 4;
const MAX_CLIENTS = 3;

/**
 * Everything an organisation can make the node store is charged to it: its admins' users and machine
 * clients are bounded per organisation, so one organisation registering accounts without end fills
 * nothing another needs (the issue's case: 2,500 clients of 8 KB keys, then every Create answered 507).
 */
describe("isolation: an organisation's accounts are charged to it", function () {
  this.timeout(60_000);
  let node: TestNode;
  before(async () => {
    node = await TestNode.start({ DATASPACE_QUOTA_USERS: String(MAX_USERS), DATASPACE_QUOTA_CLIENTS: String(MAX_CLIENTS) });
  });
  after(async () => {
    await node.stop();
  });

  it('refuses users and clients past their bounds with 507 naming the variable, storing nothing, and leaves other organisations alone', async () => {
    const b = await node.login('otherForwarder');
    // The seed gave B one user (its admin): three more fit under a bound of four.
    const users: number[] = [];
    for (let i = 0; i < MAX_USERS; i++)
      users.push(
        (
          await node.request('POST', USERS_PATH, {
            token: b,
            body: { email: `u${i}@other-forwarder.example`, password: `password-${i}-long-enough` },
          })
        ).status,
      );
    expect(users).to.deep.equal([201, 201, 201, 507]);
    const clients: number[] = [];
    for (let i = 0; i <= MAX_CLIENTS; i++)
      clients.push((await node.request('POST', CLIENTS_PATH, { token: b, body: { clientId: `B-${i}` } })).status);
    expect(clients).to.deep.equal([201, 201, 201, 507]);
    const refused = await node.request('POST', CLIENTS_PATH, { token: b, body: { clientId: 'B-extra' } });
    expect(refused.body).to.deep.equal({
      name: 'QuotaExceeded',
      message: `Your organisation has reached its quota of ${MAX_CLIENTS} machine clients of the organisation (DATASPACE_QUOTA_CLIENTS); remove one first. Nothing was stored.`,
    });
    expect((await node.request('GET', CLIENTS_PATH, { token: b })).body).to.have.length(MAX_CLIENTS);
    expect((await node.request('GET', USERS_PATH, { token: b })).body).to.have.length(MAX_USERS);
    // A removal gives one back.
    expect((await node.request('DELETE', `${CLIENTS_PATH}/B-0`, { token: b })).status).to.be.below(300);
    expect((await node.request('POST', CLIENTS_PATH, { token: b, body: { clientId: 'B-again' } })).status).to.equal(201);
    // A's own accounts and writes are untouched by B's bounds.
    const a = await node.login('forwarder');
    expect((await node.request('POST', CLIENTS_PATH, { token: a, body: { clientId: 'A-0' } })).status).to.equal(201);
    expect(
      (await node.request('POST', USERS_PATH, { token: a, body: { email: 'u@forwarder.example', password: 'password-long-enough' } }))
        .status,
    ).to.equal(201);
    await publishOwn(node, 'forwarder');
  });
});
