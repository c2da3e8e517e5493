import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toQuads } from '../../../../src/core/activities/parse.js';
import { HttpError } from '../../../../src/core/errors.js';
import { RDF_TYPE, unece, AS, D23B_CONTEXT_URL } from '../../../../src/core/rdf/namespaces.js';
import { activity, consignment, event } from '../../../helpers/payloads.js';

async function refusal(payload: unknown): Promise<HttpError> {
  try {
    await toQuads(payload);
  } catch (error) {
    expect(error).to.be.instanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('toQuads accepted the payload');
}

describe('toQuads (JSON-LD → RDF against the bundled contexts)', () => {
  describe('accepts', () => {
    it('a D23B consignment: every field expands to a D23B IRI, with no event raised', async () => {
      const c = consignment();
      const quads = await toQuads(c);
      const root = quads.find((q) => q.predicate.value === RDF_TYPE && q.object.value === unece('Consignment'))?.subject;
      expect(root, 'rdf:type unece:Consignment').to.not.equal(undefined);
      const literal = (p: string) =>
        quads
          .filter((q) => q.subject.termType === root!.termType && q.subject.value === root!.value && q.predicate.value === unece(p))
          .map((q) => q.object.value);
      expect(literal('identifier')).to.deep.equal([c.identifier]);
      expect(literal('globalId')).to.deep.equal([c.globalId]);
      expect(literal('summaryDescription')).to.deep.equal(['Machine parts']);
      const vocabularies = [
        'https://vocabulary.uncefact.org/',
        'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
        'https://w3id.org/supply-chain-dataspace/',
      ];
      for (const q of quads) {
        expect(
          vocabularies.some((v) => q.predicate.value.startsWith(v)),
          q.predicate.value,
        ).to.equal(true);
      }
      expect(quads.length).to.be.above(20);
    });

    it('a whole Create activity whose object is a D23B event', async () => {
      const quads = await toQuads(activity('Create', 'did:web:forwarder.example', event('unece:EventTypeCode#LOAD')));
      const types = quads.filter((q) => q.predicate.value === RDF_TYPE).map((q) => q.object.value);
      expect(types).to.include(`${AS}Create`);
      expect(types).to.include(unece('SupplyChainEvent'));
    });
  });

  describe('refuses with 422', () => {
    it('a term the bundled contexts do not define, naming it', async () => {
      const error = await refusal(consignment({ cargoColour: 'blue' }));
      expect(error.status).to.equal(422);
      expect(error.message).to.include('cargoColour');
      expect(error.properties?.droppedTerms).to.deep.equal(['cargoColour']);
    });

    it('several undefined terms, naming each once', async () => {
      const error = await refusal(
        consignment({ cargoColour: 'blue', consignor: { type: 'TradeParty', name: 'A', shoeSize: 44, cargoColour: 'red' } }),
      );
      expect(error.status).to.equal(422);
      expect((error.properties?.droppedTerms as string[]).sort()).to.deep.equal(['cargoColour', 'shoeSize']);
    });
  });

  describe('never fetches a context', () => {
    let server: Server;
    let base: string;
    const requests: string[] = [];

    before(async () => {
      // A real context server on 127.0.0.1: had the loader fetched, the payload would have expanded.
      server = createServer((req: IncomingMessage, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'content-type': 'application/ld+json' });
        res.end(JSON.stringify({ '@context': { '@vocab': 'https://vocabulary.uncefact.org/' } }));
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await new Promise((ok) => server.close(ok));
    });
    afterEach(function () {
      expect(requests, `requests the context server received during "${this.currentTest?.title}"`).to.deep.equal([]);
    });

    it('refuses an unbundled @context URL with a 422 that names it', async () => {
      const url = `${base}/context.jsonld`;
      const error = await refusal({ ...consignment(), '@context': url });
      expect(error.status).to.equal(422);
      expect(error.message).to.include(url);
      expect(error.properties?.context).to.equal(url);
    });

    it('refuses an unbundled URL beside the D23B context in a context array', async () => {
      const url = `${base}/extra.jsonld`;
      const error = await refusal({ ...consignment(), '@context': [D23B_CONTEXT_URL, url] });
      expect(error.status).to.equal(422);
      expect(error.message).to.include(url);
    });

    it('refuses an @import of a remote context with a 422 that names it', async () => {
      const url = `${base}/imported.jsonld`;
      const error = await refusal({ ...consignment(), '@context': [D23B_CONTEXT_URL, { '@version': 1.1, '@import': url }] });
      expect(error.status).to.equal(422);
      expect(error.message).to.include(url);
      expect(error.properties?.context).to.equal(url);
    });

    // jsonld.js resolves a property-scoped context while defining the term and drops the loader's
    // error (it raises "invalid scoped context" without a cause), so only the refusal is asserted.
    it('refuses a remote context scoped to a property', async () => {
      const url = `${base}/scoped.jsonld`;
      const payload = {
        ...consignment(),
        '@context': [D23B_CONTEXT_URL, { '@version': 1.1, extra: { '@id': 'https://example.org/extra', '@context': url } }],
        extra: { name: 'x' },
      };
      const error = await refusal(payload);
      expect(error.status).to.equal(422);
    });

    it('the server answers when asked directly, so its silence above is the loader refusing', async () => {
      const res = await fetch(`${base}/probe`);
      expect(res.status).to.equal(200);
      expect(requests).to.deep.equal(['GET /probe']);
      requests.length = 0;
    });
  });
});
