import { expect } from 'chai';
import { Ingest } from '../../../../src/core/activities/ingest.js';
import type { Principal } from '../../../../src/core/auth/principal.js';
import { QueryBank } from '../../../../src/core/queries/query-bank.js';
import { GRAPHS, SVC } from '../../../../src/core/rdf/namespaces.js';
import { activity, consignment, event, target } from '../../../helpers/payloads.js';
import { LogApartStore } from '../../../helpers/log-apart-store.js';
import { only } from '../../../helpers/present.js';

const queries = new QueryBank();
const A: Principal = { email: 'u@a', org: { id: 'did:web:a.example', name: 'A', role: 'freightForwarder', locations: [] } };

/** Every svc:seq value in `store`'s graphs. */
async function seqs(store: LogApartStore['main']): Promise<number[]> {
  const rows = await store.select(`SELECT ?seq WHERE { GRAPH ?g { ?s <${SVC}seq> ?seq } }`);
  return rows.map((row) => Number(row.get('seq')!.value));
}

describe('the write path on a store that keeps the activity log apart (QuadStore.activityLog)', () => {
  it('numbers on after a restart above the system events, and answers a repeated activity with its first entry', async () => {
    const store = new LogApartStore();
    const first = new Ingest({ store, queries, nodeName: 'test-node' });
    await first.init();
    const c = consignment();
    const create = { ...activity('Create', A.org.id, c), id: 'urn:uuid:5f0e7a52-4a83-4d0c-9a57-3b1c1d6f0a01' };
    const entry = await first.receive(create, A);
    expect(entry.status).to.equal('completed');
    expect((await first.receive(activity('Add', A.org.id, event('ARRIVAL'), target(c)), A)).status).to.equal('completed');
    // The activity log went to its own store, and nothing else did.
    const logGraphs = await store.log.select('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
    expect(logGraphs.map((row) => row.get('g')!.value)).to.deep.equal([GRAPHS.activityLog]);
    expect(await store.main.ask(`ASK { GRAPH <${GRAPHS.activityLog}> { ?s ?p ?o } }`)).to.equal(false);
    const logSeqs = await seqs(store.log);
    expect(logSeqs.length).to.be.greaterThan(0);

    const before = Math.max(...logSeqs, ...(await seqs(store.main)));
    // The last number handed out is a system event's: a restart that read only the main store would reuse it.
    expect(Math.max(...logSeqs)).to.equal(before);

    // A restart: a new write path on the same store.
    const second = new Ingest({ store, queries, nodeName: 'test-node' });
    await second.init();
    const again = await second.receive(create, A);
    expect(again.id).to.equal(entry.id);
    const next = consignment();
    expect((await second.receive(activity('Create', A.org.id, next), A)).status).to.equal('completed');
    const record = only(
      await store.main.select(
        `SELECT ?seq WHERE { GRAPH <${GRAPHS.metadata}> { ?r <${SVC}globalId> "${next.globalId as string}" ; <${SVC}seq> ?seq } }`,
      ),
    );
    expect(Number(record.get('seq')!.value)).to.be.greaterThan(before);
    const after = await seqs(store.log);
    expect(new Set(after).size, 'no system event number handed out twice').to.equal(after.length);
  });
});
