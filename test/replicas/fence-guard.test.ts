import { expect } from 'chai';
import { int, QueryBank } from '../../src/core/queries/query-bank.js';
import { SparqlStore } from '../../src/adapters/sparql-server/sparql-store.js';
import { Virtuoso, virtuosoMissing } from '../helpers/virtuoso.js';

/**
 * A replica set's writer's requests on Virtuoso are fenced by one guard at their head
 * (sparql/store/fence-guard.rq), not operation by operation: checked here on a real Virtuoso.
 */
describe("replica set: the guard fencing a writer's Update requests on Virtuoso", function () {
  this.timeout(60_000);
  const queries = new QueryBank();
  let virtuoso: Virtuoso;
  const store = (epoch?: number) =>
    new SparqlStore({
      queryUrl: virtuoso.sparqlUrl,
      updateUrl: virtuoso.sparqlUrl,
      user: undefined,
      password: undefined,
      timeoutMs: 10_000,
      fence: epoch === undefined ? undefined : { epoch, held: () => true },
    });
  /** A change writing `value` in a test graph: a clear, then an insert, as a Create's usage record is written. */
  const change = (value: string) => ({
    ops: [
      { op: 'deleteMatching' as const, subject: '<urn:t:counter>', predicate: null, object: null, graph: 'urn:t:g' },
      { op: 'insert' as const, nquads: `<urn:t:s> <urn:t:p> "${value}" <urn:t:g> .\n<urn:t:counter> <urn:t:p> "${value}" <urn:t:g> .\n` },
    ],
  });
  /** The values written under <urn:t:s> (one a change), then the one <urn:t:counter> holds (the last change's). */
  const values = async () => {
    const rows = await store().select('SELECT ?s ?o WHERE { GRAPH <urn:t:g> { ?s ?p ?o } }');
    const of = (subject: string) => rows.filter((b) => b.get('s')?.value === subject).map((b) => b.get('o')?.value ?? '');
    return [...of('urn:t:s').sort(), `counter ${of('urn:t:counter').join(', ')}`];
  };
  /** The error `durable` fails with, name and message (it must fail). */
  const failure = async (committed: Promise<{ durable: Promise<void> }>): Promise<string> => {
    try {
      await (
        await committed
      ).durable;
    } catch (error) {
      return `${(error as Error).name} ${(error as Error).message}`;
    }
    throw new Error('the fenced write applied');
  };
  const setEpoch = (epoch: number) => store().updateNow(queries.bind('replicas/writer-epoch-set', { epoch: int(epoch) }));

  before(async function () {
    if (virtuosoMissing()) this.skip(); // reason: no Virtuoso here; .ci/run installs it from Debian
    virtuoso = await Virtuoso.start();
  });
  after(async () => virtuoso?.stop());

  it('applies a request whole under the epoch the store holds, fails it whole (error status, nothing applied) otherwise', async () => {
    // No epoch in the store yet: a writer's request adds nothing.
    expect(await failure(store(5).commit(change('before any epoch')))).to.match(/^ServiceUnavailable DSF01 fenced/);
    await setEpoch(5);
    const writer = store(5);
    const text = writer.updateText(change('stale'));
    // The guard keeps the data as INSERT DATA, with no template fenced triple by triple.
    const operations = text.split(' ;\n');
    expect(operations.map((op) => op.replace(/^(#.*\n)*/, '').slice(0, 11))).to.deep.equal(['INSERT { GR', 'DELETE WHER', 'INSERT DATA']);
    expect(operations[0]).to.include('bif:signal');
    // (c) With the store's epoch, everything after the guard applies.
    await (
      await writer.commit(change('first'))
    ).durable;
    await (
      await writer.commit(change('second'))
    ).durable;
    expect(await values()).to.deep.equal(['first', 'second', 'counter second']);
    // (a), (b) Another epoch: the server answers an error status and applies nothing after the guard.
    const stale = store(4).updateText(change('old writer'));
    const res = await fetch(virtuoso.sparqlUrl, { method: 'POST', body: new URLSearchParams({ update: stale }) });
    expect(res.status).to.be.at.least(400);
    expect(await res.text()).to.include('DSF01');
    expect(await values()).to.deep.equal(['first', 'second', 'counter second']);
    // (d) A new writer bumps the epoch: the deposed one's next request adds nothing, the new one's applies.
    await setEpoch(6);
    expect(await failure(writer.commit(change('deposed')))).to.match(/^ServiceUnavailable DSF01 fenced/);
    expect(await values()).to.deep.equal(['first', 'second', 'counter second']);
    await (
      await store(6).commit(change('third'))
    ).durable;
    expect(await values()).to.deep.equal(['first', 'second', 'third', 'counter third']);
    // The guard inserts nothing of its own.
    const guardRows = await store().select('SELECT ?o WHERE { GRAPH <urn:dataspace:replica> { ?s <urn:dataspace:replica:guard> ?o } }');
    expect(guardRows).to.have.length(0);
  });
});
