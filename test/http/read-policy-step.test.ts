import { expect } from 'chai';
import { API_OPERATIONS } from '../../src/adapters/http/openapi/operations.js';
import { activity, document, newGlobalId, target } from '../helpers/payloads.js';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { publishOwn } from '../isolation/neighbours.js';

const API = '/supply-chain/data-space';

/**
 * The read policy is one step of the pipeline (src/adapters/http/visible-consignment.ts): every read the API
 * lists under a consignment's {id} answers a consignment the caller may not read exactly as one that
 * does not exist. Taken from the OpenAPI operations, so a route added there is checked here too.
 */
describe('the read policy step: every consignment read refuses an unreadable id as a missing one', function () {
  this.timeout(60_000);
  let node: TestNode;
  let globalId: string;
  const reads = API_OPERATIONS.filter((op) => op.method === 'get' && op.path.startsWith(`${API}/consignments/{id}`));

  /** A 404's body with the id asked for blanked out: two answers that differ only there tell nothing apart. */
  const answer = async (user: UserName, path: string, id: string) => {
    const res = await node.as(user, 'GET', path.replace('{id}', encodeURIComponent(id)).replace('{documentId}', 'INV-1'));
    return `${res.status} ${res.text.split(id).join('<id>')}`;
  };

  before(async () => {
    node = await TestNode.start();
    const published = await publishOwn(node, 'forwarder');
    globalId = published.globalId;
    const added = await node.publish('forwarder', activity('Add', USERS.forwarder.org, document('INV-1'), target(published)));
    expect(added.status).to.equal(201);
  });
  after(() => node.stop());

  it('finds the consignment reads among the operations', () => {
    expect(reads.map((op) => op.path)).to.include.members([
      `${API}/consignments/{id}`,
      `${API}/consignments/{id}/documents`,
      `${API}/consignments/{id}/documents/{documentId}`,
      `${API}/consignments/{id}/deliveries`,
    ]);
  });

  it('answers the owner, and another organisation as for an id that names nothing', async () => {
    for (const op of reads) {
      expect((await answer('forwarder', op.path, globalId)).slice(0, 3), op.path).to.equal('200');
      const missing = await answer('otherForwarder', op.path, newGlobalId());
      expect(missing.slice(0, 3), op.path).to.equal('404');
      expect(await answer('otherForwarder', op.path, globalId), op.path).to.equal(missing);
    }
  });
});
