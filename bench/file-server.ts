/**
 * The document files the bench's Add-document activities name: a loopback HTTP server answering every
 * `GET /<name>.pdf` with the same small PDF, so the node fetches and stores a real file per document
 * (as it would from a forwarder's file server) instead of failing a DNS lookup.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    `% commercial invoice ${'x'.repeat(8 * 1024)}\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
);

export interface FileServer {
  url: string;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || !/^\/[\w.-]+\.pdf$/.test(req.url ?? '')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': PDF.length }).end(PDF);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
