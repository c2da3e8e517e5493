import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { projectRoot } from '../../src/core/project-paths.js';
import { freePort } from '../helpers/free-port.js';
import { TEST_SEED } from '../helpers/test-node.js';

const MAIN = resolve(projectRoot, 'dist', 'bundle', 'main.js');

describe('probes while the node starts', function () {
  this.timeout(60_000);

  it('answers /healthz 200 and /readyz 503 (and every route 503) until the store is ready', async () => {
    // A SPARQL server that holds the node's first request: the node stays in its start for as long as we like.
    const held: ServerResponse[] = [];
    const store = createServer((_req: IncomingMessage, res: ServerResponse) => {
      held.push(res);
    });
    await new Promise<void>((ok) => store.listen(0, '127.0.0.1', () => ok()));
    const storeUrl = `http://127.0.0.1:${(store.address() as AddressInfo).port}/sparql`;
    const dir = mkdtempSync(join(tmpdir(), 'dataspace-probes-'));
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATASPACE_DATA_DIR: dir,
        DATASPACE_SEED: TEST_SEED,
        JWT_SECRET: 'probe-secret-0123456789abcdef',
        DATASPACE_STORE: 'sparql',
        DATASPACE_SPARQL_QUERY_URL: storeUrl,
        DATASPACE_SPARQL_UPDATE_URL: storeUrl,
        DATASPACE_SPARQL_STORE_TIMEOUT_MS: '60000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      let health: Response | undefined;
      while (!health) {
        health = await fetch(`${url}/healthz`).catch(() => undefined);
        if (!health) {
          expect(Date.now(), `the node never answered:\n${stderr}`).to.be.below(deadline);
          await new Promise((ok) => setTimeout(ok, 50));
        }
      }
      expect(health.status).to.equal(200);
      // Wait until the node is really inside its start (its store check reached the server).
      while (held.length === 0) {
        expect(Date.now(), `the node never asked its store:\n${stderr}`).to.be.below(deadline);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).to.equal(503);
      expect(await ready.text()).to.equal('starting');
      const route = await fetch(`${url}/supply-chain/data-space/consignments`);
      expect(route.status).to.equal(503);
      expect(route.headers.get('retry-after')).to.equal('1');
      expect(route.headers.get('x-request-id')).to.be.a('string');
      expect(await route.json()).to.include({ name: 'ServiceUnavailable' });
      expect(stderr).not.to.contain('"msg":"listening"');
      // The store fails: the node says why and exits 1, as before it listened early.
      for (const res of held) res.writeHead(500).end('store down');
      expect(await exited).to.equal(1);
      expect(stderr).to.contain('answered 500');
    } finally {
      child.kill('SIGKILL');
      store.closeAllConnections();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
