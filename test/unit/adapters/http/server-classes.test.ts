import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express, { type Express } from 'express';
import { ServerClasses } from '../../../../src/adapters/http/server-classes.js';
import { nth } from '../../../helpers/present.js';

describe("http: server classes with the express app's prototypes", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  /** Serves `app` through the classes; records each request's prototype as it arrives and as express left it. */
  async function serve(app: Express, classes: ServerClasses): Promise<{ url: string; seen: { arrived: object; handled?: object }[] }> {
    const seen: { arrived: object; handled?: object }[] = [];
    classes.serve(app);
    server = createServer(classes.options);
    server.on('request', (req: IncomingMessage) => seen.push({ arrived: Object.getPrototypeOf(req) as object }));
    server.on('request', app);
    app.use((req, _res, next) => {
      seen.at(-1)!.handled = Object.getPrototypeOf(req) as object;
      next();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }

  it('gives every request the prototype express would set, so express changes none', async () => {
    const app = express();
    app.set('json spaces', 1);
    const { url, seen } = await serve(app, new ServerClasses());
    app.get('/x', (req, res) => {
      res
        .status(203)
        .set('x-app', String(req.app === app))
        .json({ ip: req.ip, path: req.path, accepts: req.accepts('json') });
    });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/x?q=${i}`);
      expect(res.status).to.equal(203);
      expect(res.headers.get('x-app')).to.equal('true');
      // The app's own setting came through the prototypes: `json spaces` indents.
      expect(await res.text()).to.equal('{\n "ip": "127.0.0.1",\n "path": "/x",\n "accepts": "json"\n}');
    }
    expect(seen).to.have.length(3);
    for (const { arrived, handled } of seen) {
      expect(arrived).to.equal(app.request);
      expect(handled).to.equal(arrived);
    }
  });

  it('hands a server from one app to the next (the early server to the node), each request with the app that answers it', async () => {
    const classes = new ServerClasses();
    const starting = express();
    starting.use((_req, res) => res.status(503).json({ app: 'starting' }));
    classes.serve(starting);
    const node = express();
    node.get('/who', (req, res) => res.json({ app: req.app === node ? 'node' : 'other' }));
    const { url, seen } = await serve(node, classes);
    expect(await (await fetch(`${url}/who`)).json()).to.deep.equal({ app: 'node' });
    expect(nth(seen, 0).arrived).to.equal(node.request);
    // Serving the same app again changes nothing (no prototype cycle).
    classes.serve(node);
    expect(await (await fetch(`${url}/who`)).json()).to.deep.equal({ app: 'node' });
  });
});
