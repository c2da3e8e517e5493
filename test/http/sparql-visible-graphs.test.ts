import { expect } from 'chai';
import { TestNode, USERS, type UserName } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { present } from '../helpers/present.js';
import { GRAPHS_WITH_DATA, visibleGraphsWithData } from '../helpers/visible-graphs-oracle.js';

const SPARQL = '/supply-chain/data-space/sparql';
const CALLERS: UserName[] = ['forwarder', 'otherForwarder', 'border', 'douane', 'port', 'rotterdam'];

type Json = Record<string, any>;

/**
 * The SPARQL engine threads keep each caller's visible graphs across commits and bring them up to
 * date with what each commit touched. Whatever the mix of writes, policy changes and reads, the graphs
 * a caller's query ranges over must be exactly what policy/visible-graphs answers on the node's own
 * store at that moment: nothing left visible after a policy is withdrawn, new graphs visible as soon
 * as their commit is acknowledged. On a SPARQL server (the Virtuoso run) the endpoint asks the server
 * for them instead, and the same must hold.
 */
describe('SPARQL endpoint: the visible graphs follow writes and policy changes exactly', () => {
  let node: TestNode;

  before(async () => {
    node = await TestNode.start();
  });
  after(async () => {
    await node.stop();
  });

  /** The graphs a caller's queries range over, as the endpoint answers. */
  const seen = async (user: UserName): Promise<string[]> => {
    const res = await node.request('POST', SPARQL, {
      token: await node.login(user),
      rawBody: GRAPHS_WITH_DATA,
      headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
    });
    expect(res.status, res.text).to.equal(200);
    return res.body.results.bindings.map((b: Json) => b.g.value).sort();
  };
  /** Every caller sees exactly its visible graphs; answers them by caller. */
  const allExact = async (step: string): Promise<Partial<Record<UserName, string[]>>> => {
    const sets: Partial<Record<UserName, string[]>> = {};
    for (const user of CALLERS) {
      sets[user] = await seen(user);
      expect(sets[user], `${step}: ${user}`).to.deep.equal(await visibleGraphsWithData(node, user));
    }
    return sets;
  };
  const publish = async (user: UserName, body: Json): Promise<void> => {
    const res = await node.publish(user, body);
    expect(res.body.status, res.text).to.equal('completed');
  };
  const policy = async (body: Json): Promise<string> => {
    const res = await node.as('forwarder', 'POST', '/supply-chain/data-space/policies', body);
    expect(res.status, res.text).to.equal(201);
    return res.body.id as string;
  };
  const withdraw = async (id: string): Promise<void> => {
    expect((await node.as('forwarder', 'DELETE', `/supply-chain/data-space/policies/${encodeURIComponent(id)}`)).status).to.equal(204);
  };

  it('agrees with policy/visible-graphs after every step of interleaved writes, policy changes and reads', async () => {
    const fxt = consignment();
    const dover = consignment({ loadingBaseportLocation: { type: 'LogisticsLocation', name: 'Dover', UNLocode: 'GBDVR' } });
    const theirs = consignment();
    await allExact('empty');

    await publish('forwarder', activity('Create', USERS.forwarder.org, fxt));
    let sets = await allExact('a Create');
    expect(sets.forwarder).to.have.length(1);
    expect(sets.border, 'no policy yet').to.deep.equal([]);

    // Views are cached now: each later step is caught up with, not recomputed from nothing.
    const gb = await policy({ role: 'borderAgency', countries: ['GB'] });
    sets = await allExact('a policy for GB border agencies');
    expect(sets.border).to.deep.equal(sets.forwarder);
    expect(sets.douane).to.deep.equal([]);

    await publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(fxt)));
    await publish('forwarder', activity('Create', USERS.forwarder.org, dover));
    await publish('otherForwarder', activity('Create', USERS.otherForwarder.org, theirs));
    sets = await allExact("an event, a Create, another forwarder's Create");
    expect(sets.border, 'the new graphs, visible at once').to.have.length(3);
    expect(sets.otherForwarder).to.have.length(1);

    const port = await policy({ role: 'locationOperator', locations: ['GBFXT'] });
    await publish('forwarder', activity('Update', USERS.forwarder.org, { ...dover, loadingBaseportLocation: fxt.loadingBaseportLocation }));
    sets = await allExact('a location policy, and an Update that moves a consignment onto its route');
    expect(sets.port, 'both consignments now pass Felixstowe').to.have.length(3);

    await publish('forwarder', activity('Update', USERS.forwarder.org, { ...fxt, loadingBaseportLocation: dover.loadingBaseportLocation }));
    sets = await allExact('an Update that moves a consignment off that route');
    expect(sets.port, "the moved consignment's graphs are gone at once").to.have.length(1);

    await withdraw(gb);
    sets = await allExact('the GB policy withdrawn');
    expect(sets.border, 'nothing left visible after the policy is withdrawn').to.deep.equal([]);

    const narrow = await policy({ role: 'borderAgency', countries: ['GB'], consignments: [dover.globalId] });
    await publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(dover)));
    await publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:atLocationOfExit'), target(fxt)));
    sets = await allExact('a policy narrowed to one consignment, then events on both');
    expect(sets.border, "the narrowed consignment's state and event only").to.have.length(2);

    await withdraw(port);
    await withdraw(narrow);
    sets = await allExact('every policy withdrawn');
    expect(sets.border).to.deep.equal([]);
    expect(sets.port).to.deep.equal([]);
  });

  it('shows a commit to a query sent as soon as it is acknowledged, with reads and writes in flight together', async () => {
    await policy({ role: 'borderAgency', countries: ['GB'] });
    const before = new Set(await seen('border'));
    const created = Array.from({ length: 6 }, () => consignment());
    await Promise.all(
      created.map(async (c) => {
        await publish('forwarder', activity('Create', USERS.forwarder.org, c));
        // Sent right after this commit's answer, while other commits and reads are still in flight.
        const found = await node.request('POST', SPARQL, {
          token: await node.login('border'),
          rawBody: `SELECT ?c WHERE { ?c <https://vocabulary.uncefact.org/globalId> ?id FILTER(STR(?id) = "${c.globalId}") }`,
          headers: { accept: 'application/sparql-results+json', 'content-type': 'application/sparql-query' },
        });
        expect(found.status, found.text).to.equal(200);
        expect(found.body.results.bindings, `${c.globalId} right after its Create was acknowledged`).to.have.length(1);
      }),
    );
    const after = await allExact('six Creates with reads in between');
    expect(present(after.border).length - before.size).to.equal(6);
  });
});
