import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FileBlobStore } from '../../../../src/core/ports/blob-store.js';
import { DocumentFiles } from '../../../../src/core/documents/document-files.js';
import { readFetchConfig } from '../../../../src/core/documents/fetch-config.js';
import { FileFetcher } from '../../../../src/core/documents/file-fetcher.js';
import { HostPolicy, isPublicAddress } from '../../../../src/core/documents/host-policy.js';

describe('document files: host policy', () => {
  const table: [string, boolean][] = [
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:8.8.8.8', true],
    ['224.0.0.1', false],
  ];
  for (const [ip, expected] of table) it(`${ip} is ${expected ? '' : 'not '}public`, () => expect(isPublicAddress(ip)).to.equal(expected));

  it('allows any public host with *, private ones only when listed by name, address or range', () => {
    const open = new HostPolicy(['*']);
    expect(open.refuseHost('files.example.com')).to.equal(undefined);
    expect(open.refuseAddress('files.example.com', '93.184.216.34')).to.equal(undefined);
    expect(open.refuseAddress('files.example.com', '10.0.0.5'))
      .to.match(/resolves to an address that is not public/)
      .and.not.contain('10.0.0.5');
    expect(open.refuseHost('127.0.0.1')).to.match(/not a public address/);
    const listed = new HostPolicy(['*', 'intranet.local', '10.0.0.0/8']);
    expect(listed.refuseAddress('intranet.local', '192.168.0.9')).to.equal(undefined);
    expect(listed.refuseAddress('other.local', '10.9.9.9')).to.equal(undefined);
    expect(listed.refuseAddress('other.local', '192.168.0.9')).to.match(/an address that is not public/);
  });

  it('allows only the listed hosts when the list has no *', () => {
    const only = new HostPolicy(['files.example.com', '*.cdn.example.org']);
    expect(only.refuseHost('files.example.com')).to.equal(undefined);
    expect(only.refuseHost('a.cdn.example.org')).to.equal(undefined);
    expect(only.refuseHost('cdn.example.org.evil.com')).to.match(/not listed/);
    expect(only.refuseHost('evil.com')).to.match(/not listed/);
  });
});

describe('document files: fetcher and blob store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dataspace-blobs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const config = { ...readFetchConfig({}), maxBytes: 64 };

  it('decodes data: URLs, base64 and percent-encoded, within the size limit', async () => {
    const fetcher = new FileFetcher(config);
    expect(await fetcher.fetch('data:text/csv;base64,YSxiCjEsMgo=')).to.deep.include({ ok: true, mediaType: 'text/csv' });
    const plain = await fetcher.fetch('data:,hello%20world');
    expect(plain.ok && plain.bytes.toString()).to.equal('hello world');
    expect(plain.ok && plain.mediaType).to.equal('text/plain');
    expect(await fetcher.fetch(`data:;base64,${Buffer.alloc(100).toString('base64')}`)).to.deep.include({ ok: false });
    expect(await fetcher.fetch('data:text/plain')).to.deep.include({ ok: false });
    expect(await fetcher.fetch('file:///etc/passwd')).to.deep.equal({
      ok: false,
      reason: 'Only data:, http: and https: files are fetched, not file:',
    });
    expect(await fetcher.fetch('not a url')).to.deep.include({ ok: false });
  });

  it('asks again on a new connection when the server closed the kept-alive one it reused', async () => {
    // The race a server's keep-alive timeout opens: the client writes on the idle socket as the server
    // closes it. Played here deterministically: every second request on a connection is cut off.
    const served = new WeakMap<Socket, number>();
    let cut = 0;
    const server = createServer((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      if (n > 1) {
        cut += 1;
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 }).end('ok');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const fetcher = new FileFetcher({ ...readFetchConfig({ DATASPACE_FETCH_ALLOW: '127.0.0.1' }) });
      for (let i = 0; i < 4; i++) {
        const answer = await fetcher.fetch(`${base}/file-${i}.txt`);
        expect(answer.ok && answer.bytes.toString(), `fetch ${i}`).to.equal('ok');
      }
      expect(cut, 'connections were reused and cut').to.be.greaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it('keeps bytes once by sha-256 and gives them back', async () => {
    const blobs = new FileBlobStore(dir, false);
    const files = new DocumentFiles(new FileFetcher(config), blobs);
    const outcome = await files.prepare('data:application/json;base64,eyJhIjoxfQ==');
    const sha = createHash('sha256').update('{"a":1}').digest('hex');
    expect(outcome).to.deep.equal({ ok: true, sha256: sha, size: 7, encodingFormat: 'application/json', fileExtension: 'json' });
    expect(await blobs.put(Buffer.from('{"a":1}'))).to.equal(sha);
    expect((await blobs.get(sha))?.toString()).to.equal('{"a":1}');
    expect(await blobs.get('0'.repeat(64))).to.equal(undefined);
    expect(await blobs.get('../../etc/passwd').catch((error: Error) => error.message)).to.match(/Not a sha-256/);
  });
});
