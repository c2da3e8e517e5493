import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, document, target } from '../helpers/payloads.js';

const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

const INVOICE_V1 = Buffer.from('%PDF-1.4 invoice one\n%%EOF\n');
const INVOICE_V2 = Buffer.from('%PDF-1.4 invoice two, corrected\n%%EOF\n');

/** A file server on 127.0.0.1: files, a redirect, a big file without Content-Length, one that never answers. */
async function fileServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/files/invoice-1.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(INVOICE_V1);
    else if (path === '/files/invoice-2.pdf') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(INVOICE_V2);
    else if (path === '/moved/invoice.pdf') res.writeHead(302, { location: '/files/invoice-2.pdf' }).end();
    else if (path.startsWith('/to-localhost'))
      res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/files/invoice-1.pdf` }).end();
    else if (path === '/big.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, i));
      res.end();
    } else if (path === '/slow.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF'); // and never more
    } else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('document files: fetched at Add, kept by sha-256, served by href', function () {
  this.timeout(30_000);
  let files: { server: Server; base: string };
  let node: TestNode;

  before(async () => {
    files = await fileServer();
    node = await TestNode.start({
      DATASPACE_FETCH_ALLOW: '127.0.0.1',
      DATASPACE_FETCH_MAX_BYTES: '4000',
      DATASPACE_FETCH_TIMEOUT_MS: '700',
    });
  });
  after(async () => {
    await node.stop();
    files.server.closeAllConnections();
    files.server.close();
  });

  async function withDocument(doc: Record<string, unknown>, on = consignment()) {
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, on));
    const res = await node.publish('forwarder', activity('Add', USERS.forwarder.org, doc, target(on)));
    expect(res.status).to.equal(201);
    return { c: on, entry: res.body };
  }

  async function bytes(href: string, accept: string, user: keyof typeof USERS = 'forwarder') {
    const res = await fetch(href, { headers: { accept, authorization: `Bearer ${await node.login(user)}` } });
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  }

  it('fills the metadata from the fetched file and returns its bytes for a non-JSON Accept; earlier revisions by history href', async () => {
    const { c, entry } = await withDocument(document('INV-1', { uRIId: `${files.base}/files/invoice-1.pdf` }));
    expect(entry.status).to.equal('completed');
    expect(entry.tasks[0]).to.not.have.property('error');
    // A redirect is followed; a generic content type gives way to the file name's.
    await node.publish(
      'forwarder',
      activity('Add', USERS.forwarder.org, document('INV-1', { versionId: '2', uRIId: `${files.base}/moved/invoice.pdf` }), target(c)),
    );
    const [invoice] = (await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents`)).body;
    expect(invoice.documentRevision).to.equal(2);
    expect(invoice.metadata).to.deep.equal({ encodingFormat: 'application/pdf', blobSize: INVOICE_V2.length, fileExtension: 'pdf' });

    const current = await bytes(invoice.href, 'application/pdf');
    expect(current.status).to.equal(200);
    expect(current.type).to.equal('application/pdf');
    expect(current.body.equals(INVOICE_V2)).to.equal(true);
    const earlier = await bytes(invoice.history[0].href, 'application/pdf, application/octet-stream;q=0.5');
    expect(earlier.body.equals(INVOICE_V1)).to.equal(true);
    // JSON still answers with the DocumentAttachment.
    // JSON asked for (Accept or ?meta) answers with the DocumentAttachment; a plain download gets the file.
    const json = await node.request('GET', `${consignmentPath(c.globalId)}/documents/INV-1`, {
      token: await node.login('forwarder'),
      headers: { accept: 'application/json' },
    });
    expect(json.body).to.include({ documentId: 'INV-1', documentRevision: 2 });
    expect((await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents/INV-1?meta`)).body).to.include({
      documentId: 'INV-1',
    });
    for (const accept of ['*/*', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
      const download = await bytes(invoice.href, accept);
      expect(download.type, accept).to.equal('application/pdf');
      expect(download.body.equals(INVOICE_V2)).to.equal(true);
    }
    // Without a policy the bytes are as invisible as the rest.
    expect((await bytes(invoice.href, 'application/pdf', 'border')).status).to.equal(404);
    expect((await bytes(`${invoice.href}?revision=7`, 'application/pdf')).status).to.equal(404);
    expect((await bytes(`${invoice.href.split('?')[0]}?revision=zero`, 'application/pdf')).status).to.equal(400);
  });

  const refusals: { name: string; uri: (base: string) => string; error: RegExp }[] = [
    {
      name: 'a host not in DATASPACE_FETCH_ALLOW',
      uri: () => 'http://files.example/invoice.pdf',
      error: /files\.example is not listed in DATASPACE_FETCH_ALLOW/,
    },
    {
      name: 'a redirect to a host not in the list (checked on every hop)',
      uri: (b) => `${b}/to-localhost`,
      error: /localhost is not listed/,
    },
    { name: 'a file over DATASPACE_FETCH_MAX_BYTES', uri: (b) => `${b}/big.bin`, error: /larger than 4000 bytes/ },
    { name: 'a server that stops answering (DATASPACE_FETCH_TIMEOUT_MS)', uri: (b) => `${b}/slow.pdf`, error: /within 700 ms/ },
    { name: 'a 404', uri: (b) => `${b}/missing.pdf`, error: /answered 404/ },
  ];
  for (const refusal of refusals) {
    it(`fails the Add, in status and tasks[].error, and stores nothing for ${refusal.name}`, async () => {
      const { c, entry } = await withDocument(document('DOC-X', { uRIId: refusal.uri(files.base) }));
      expect(entry.status).to.equal('failed');
      expect(entry.tasks[0].status).to.equal('failed');
      expect(entry.tasks[0].error.name).to.equal('FileNotFetched');
      expect(entry.tasks[0].error.message).to.match(refusal.error);
      expect((await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents`)).body).to.deep.equal([]);
      const view = (await node.as('forwarder', 'GET', consignmentPath(c.globalId))).body;
      expect(view.systemEvents.map((e: any) => e.typeCode)).to.deep.equal(['CREATE']);
    });
  }

  it('keeps a file given inline as a data: URL', async () => {
    const text = 'Packing list: 12 gearboxes';
    const { c, entry } = await withDocument(document('PL-1', { uRIId: `data:text/plain;base64,${Buffer.from(text).toString('base64')}` }));
    expect(entry.status).to.equal('completed');
    expect(entry.tasks[0]).to.not.have.property('error');
    const [attachment] = (await node.as('forwarder', 'GET', `${consignmentPath(c.globalId)}/documents`)).body;
    expect(attachment.metadata).to.include({ encodingFormat: 'text/plain', blobSize: text.length });
    const file = await bytes(attachment.href, 'text/plain');
    expect(file.status).to.equal(200);
    expect(file.body.toString()).to.equal(text);
  });

  it('never holds up the inbox while a file is slow: other activities are answered meanwhile', async () => {
    const c = consignment();
    await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    const order: string[] = [];
    const slow = node
      .publish('forwarder', activity('Add', USERS.forwarder.org, document('SLOW-1', { uRIId: `${files.base}/slow.pdf` }), target(c)))
      .then((r) => {
        order.push('slow document');
        return r;
      });
    await new Promise((ok) => setTimeout(ok, 100));
    const quick = await node.publish('forwarder', activity('Create', USERS.forwarder.org, consignment()));
    order.push('create');
    expect(quick.status).to.equal(201);
    expect((await slow).body.tasks[0].error.message).to.match(/within 700 ms/);
    expect(order).to.deep.equal(['create', 'slow document']);
  });

  it('refuses loopback and private addresses by default, also behind a name that resolves to one', async () => {
    const open = await TestNode.start({});
    try {
      const c = consignment();
      await open.publish('forwarder', activity('Create', USERS.forwarder.org, c));
      for (const [uri, error] of [
        [`${files.base}/files/invoice-1.pdf`, /127\.0\.0\.1 is not a public address/],
        [`http://localhost:${new URL(files.base).port}/files/invoice-1.pdf`, /^localhost resolves to an address that is not public;/],
        ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address/],
        ['http://[::ffff:10.0.0.1]/x.pdf', /is not a public address/],
      ] as const) {
        const res = await open.publish(
          'forwarder',
          activity('Add', USERS.forwarder.org, document(`D-${Math.random()}`, { uRIId: uri }), target(c)),
        );
        expect(res.body.tasks[0].error?.message, uri).to.match(error);
      }
    } finally {
      await open.stop();
    }
  });
});
