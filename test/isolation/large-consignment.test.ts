import { expect } from 'chai';
import jsonld from 'jsonld';
import n3 from 'n3';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { EXPORT_THREAD_MIN_CHARS } from '../../src/core/views/rdf-export.js';
import { LoopWatch } from './neighbours.js';

const EVENTS = 40;
const DESCRIPTION_CHARS = 15_000;
/**
 * Generous for a shared 2-core machine (a garbage collection of the large strings counts too):
 * written in one piece, these exports held the loop for seconds each at this size on such a machine.
 */
const LOOP_BOUND_MS = 1000;

/**
 * A consignment as large as its owner may make it is read as a view and exported in every syntax
 * while the event loop is watched: the graphs are read in slices and a large export is written on a
 * thread, so no reader of it stalls the node for everyone.
 */
describe('isolation: a large consignment read and exported without stalling the node', function () {
  this.timeout(120_000);
  let node: TestNode;
  const c = consignment();
  const path = `/supply-chain/data-space/consignments/${encodeURIComponent(c.globalId)}`;

  before(async () => {
    node = await TestNode.start();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).body.status).to.equal('completed');
    const token = await node.login('forwarder');
    for (let i = 0; i < EVENTS; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, k) => {
          const body = activity(
            'Add',
            USERS.forwarder.org,
            event('svc:despatched', { description: `${'x'.repeat(DESCRIPTION_CHARS)} #${i + k}` }),
            target(c),
          );
          expect((await node.request('POST', '/supply-chain/data-space/inbox', { token, body })).body.status).to.equal('completed');
        }),
      );
    }
  });
  after(async () => {
    await node.stop();
  });

  const read = async (accept: string) => {
    const watch = new LoopWatch().start();
    const res = await fetch(`${node.url}${path}`, { headers: { accept, authorization: `Bearer ${await node.login('forwarder')}` } });
    const text = await res.text();
    return { status: res.status, text, etag: res.headers.get('etag'), stall: watch.stop() };
  };
  const descriptions = (quads: { object: { value: string } }[]) =>
    new Set(
      quads
        .map((q) => q.object.value)
        .filter((v) => v.startsWith('xxx'))
        .map((v) => v.slice(DESCRIPTION_CHARS)),
    );
  const all = new Set(Array.from({ length: EVENTS }, (_, i) => ` #${i}`));

  for (const [accept, format] of [
    ['application/trig', 'TriG'],
    ['text/turtle', 'Turtle'],
    ['application/n-triples', 'N-Triples'],
    ['application/n-quads', 'N-Quads'],
  ] as const) {
    it(`exports it as ${format} above the thread threshold, whole, with the loop free, and 304 for its ETag`, async () => {
      const out = await read(accept);
      expect(out.status).to.equal(200);
      expect(out.text.length).to.be.above(EXPORT_THREAD_MIN_CHARS);
      const quads = new n3.Parser({ format }).parse(out.text);
      expect(descriptions(quads)).to.deep.equal(all);
      if (format === 'TriG' || format === 'N-Quads') expect(new Set(quads.map((q) => q.graph.value)).size).to.equal(EVENTS + 1);
      expect(out.stall).to.be.below(LOOP_BOUND_MS);
      const again = await fetch(`${node.url}${path}`, {
        headers: { accept, 'if-none-match': out.etag!, authorization: `Bearer ${await node.login('forwarder')}` },
      });
      expect(again.status).to.equal(304);
    });
  }

  it('exports it as JSON-LD with the loop free', async () => {
    const out = await read('application/ld+json');
    expect(out.status).to.equal(200);
    // The compacted document names the node's own context (/contexts/): expanded with what the node serves.
    const documentLoader = async (url: string) => ({ document: await (await fetch(url)).json(), documentUrl: url, contextUrl: null });
    const expanded = await jsonld.toRDF(JSON.parse(out.text), { documentLoader: documentLoader as never });
    expect(descriptions(expanded as never)).to.deep.equal(all);
    expect(out.stall).to.be.below(LOOP_BOUND_MS);
  });

  it('answers the JSON view with every event, framed in slices', async () => {
    const out = await read('application/json');
    expect(out.status).to.equal(200);
    const view = JSON.parse(out.text);
    expect(view.events).to.have.length(EVENTS);
    expect(out.stall).to.be.below(LOOP_BOUND_MS);
  });
});
