import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { haproxyMissing } from '../helpers/haproxy.js';
import { activity, consignment, type Json } from '../helpers/payloads.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { ServerAuth } from '../../src/adapters/sparql-server/server-auth.js';
import { Virtuoso, VIRTUOSO_GRAPH_INDEX, VIRTUOSO_GRAPH_INDEX_DROP, VIRTUOSO_NODE_ACCOUNT, virtuosoMissing } from '../helpers/virtuoso.js';

const ACCOUNT = { user: 'dataspace', password: 'node-account-password-1' };
const view = (globalId: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(globalId)}`;

/** A form-encoded SPARQL request to `url` with no credentials: what anyone who reaches the port may send. */
async function anonymous(url: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams(form),
  });
  return { status: res.status, text: await res.text() };
}

/** A SPARQL request to `url` as the node's account, answering Virtuoso's Digest challenge as the node does. */
async function asAccount(url: string, form: Record<string, string>): Promise<{ status: number; text: string }> {
  const auth = new ServerAuth(ACCOUNT.user, ACCOUNT.password);
  for (let answered: string | undefined, tries = 0; ; tries++) {
    answered = auth.header(url);
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/sparql-results+json',
        ...(answered ? { authorization: answered } : {}),
      },
      body: new URLSearchParams(form),
    });
    const text = await res.text();
    if (res.status !== 401 || tries === 3 || !auth.refused(res.headers.get('www-authenticate') ?? undefined, answered))
      return { status: res.status, text };
  }
}

describe('deploy/: the Virtuoso scripts and the HAProxy configuration, as an operator copies them', function () {
  this.timeout(300_000);
  let virtuoso: Virtuoso;
  let node: TestNode;

  before(async function () {
    const missing = virtuosoMissing();
    if (missing) this.skip(); // reason: no Virtuoso here; .ci/run installs it from Debian
    virtuoso = await Virtuoso.start({ account: ACCOUNT });
    node = await TestNode.start(virtuoso.env());
  });

  after(async () => {
    await node?.stop();
    await virtuoso?.stop();
  });

  const create = async (): Promise<string> => {
    const c: Json = consignment();
    const res = await node.publish('forwarder', activity('Create', USERS.forwarder.org, c));
    expect(res.body.status, res.text).to.equal('completed');
    return c.globalId as string;
  };
  /** What a node started on the server now logs of the graphs its account reads (deploy/virtuoso-node-account.sql). */
  const startCheck = async (): Promise<string> => {
    const logger = recordingLogger();
    const started = await TestNode.start(virtuoso.env(), undefined, logger);
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const said = logger.messages.find((m) => /SPARQL account reads/.test(m));
        if (said !== undefined) return said;
        if (Date.now() > deadline) throw new Error(`no word on the account's graphs:\n${logger.messages.join('\n')}`);
        await new Promise((ok) => setTimeout(ok, 100));
      }
    } finally {
      await started.stop();
    }
  };
  const readBack = async (globalId: string) => {
    const res = await node.as('forwarder', 'GET', view(globalId));
    expect(res.status, res.text).to.equal(200);
  };

  it('gives the node its account over /sparql-auth (Digest) and anonymous requests neither update nor read', async () => {
    expect(virtuoso.env().DATASPACE_SPARQL_UPDATE_URL).to.match(/\/sparql-auth$/);
    await readBack(await create());
    const update = await anonymous(virtuoso.sparqlUrl, {
      update: 'INSERT DATA { GRAPH <urn:dataspace:graph:intruder> { <urn:a> <urn:b> "c" } }',
    });
    expect(update.status, update.text).to.not.be.within(200, 299);
    const read = await anonymous(virtuoso.sparqlUrl, {
      query: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER (STRSTARTS(STR(?g), "urn:")) }',
    });
    expect(read.status, read.text).to.equal(200);
    expect(JSON.parse(read.text).results.bindings[0].n.value, 'quads anonymous requests see').to.equal('0');
    // The account's password is what lets the node in: a wrong one is refused at start, saying so.
    const refused = await TestNode.start({ ...virtuoso.env(), DATASPACE_SPARQL_PASSWORD: 'not-the-password' }).then(
      (wrong) => wrong.stop().then(() => undefined),
      (error: Error) => error,
    );
    expect(refused?.message).to.match(/401/);
  });

  it("limits the account to the node's graphs: it reads and writes them, and another graph on the server it neither reads nor writes", async () => {
    const other = 'http://other.example/dataset';
    await virtuoso.isql(`SPARQL INSERT DATA { GRAPH <${other}> { <urn:a> <urn:b> "theirs" } }`);
    // Loaded after the account's script, it is open to the account: a node started now says so.
    expect(await startCheck(), 'a node started with a graph loaded later').to.match(/reads graphs that are not the node's/);
    // The operator runs the account's script again once another dataset is on the server.
    await virtuoso.setUp(VIRTUOSO_NODE_ACCOUNT, { account: ACCOUNT.user, password: ACCOUNT.password });
    expect(await startCheck(), 'once the script ran again').to.match(/reads only the node's graphs/);
    const url = virtuoso.env().DATASPACE_SPARQL_UPDATE_URL!;
    const write = await asAccount(url, { update: `INSERT DATA { GRAPH <${other}> { <urn:x> <urn:y> "node" } }` });
    expect(write.status, write.text).to.not.be.within(200, 299);
    expect(write.text).to.include('no write permission on graph');
    const read = await asAccount(url, { query: `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${other}> { ?s ?p ?o } }` });
    expect(read.status, read.text).to.equal(200);
    expect(JSON.parse(read.text).results.bindings[0].n.value, 'quads of another graph the account sees').to.equal('0');
    expect(await virtuoso.isql(`SPARQL SELECT ?o WHERE { GRAPH <${other}> { ?s ?p ?o } }`), 'the other graph is as it was').to.include(
      'theirs',
    );
    // Its own graphs, old and new, as before: a Create written and read back through the node.
    const own = await asAccount(url, { query: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:dataspace:graph:registry> { ?s ?p ?o } }' });
    expect(Number(JSON.parse(own.text).results.bindings[0].n.value), own.text).to.be.above(0);
    await readBack(await create());
  });

  it('names a graph loaded beside a running node at its next check, without a restart', async () => {
    const other = 'http://other.example/loaded-later';
    // Each line with its fields: the warning names the graphs there.
    const messages: string[] = [];
    const keep = (message: string, fields?: object) => void messages.push(`${message} ${JSON.stringify(fields ?? {})}`);
    const logger = { messages, info: keep, warn: keep, error: keep, debug: keep };
    const running = await TestNode.start({ ...virtuoso.env(), DATASPACE_SPARQL_FOREIGN_GRAPHS_CHECK_MS: '300' }, undefined, logger);
    const said = async (pattern: RegExp) => {
      const deadline = Date.now() + 30_000;
      while (!logger.messages.some((m) => pattern.test(m))) {
        if (Date.now() > deadline) throw new Error(`not logged ${String(pattern)}:\n${logger.messages.join('\n')}`);
        await new Promise((ok) => setTimeout(ok, 100));
      }
    };
    try {
      await said(/reads only the node's graphs/);
      await virtuoso.isql(`SPARQL INSERT DATA { GRAPH <${other}> { <urn:a> <urn:b> "later" } }`);
      await said(/reads graphs that are not the node's/);
      const warned = logger.messages.filter((m) => /reads graphs that are not the node's/.test(m));
      expect(warned.join('\n'), 'the warning names the graph').to.include(other);
    } finally {
      await running.stop();
      await virtuoso.setUp(VIRTUOSO_NODE_ACCOUNT, { account: ACCOUNT.user, password: ACCOUNT.password });
    }
  });

  it('checkpoints after index DDL: killed right after adding or dropping the graph index, the server restarts and takes writes', async () => {
    const before = await create();
    const hasIndex = async () =>
      /RDF_QUAD_GSPO/.test(await virtuoso.isql("select KEY_NAME from DB.DBA.SYS_KEYS where KEY_NAME = 'RDF_QUAD_GSPO'"));
    for (const [script, indexed] of [
      [VIRTUOSO_GRAPH_INDEX, true],
      [VIRTUOSO_GRAPH_INDEX_DROP, false],
    ] as const) {
      await virtuoso.setUp(script);
      expect(await hasIndex(), script).to.equal(indexed);
      // Killed before its own checkpoint: only what the script checkpointed survives as the schema.
      await virtuoso.kill('SIGKILL');
      await virtuoso.restart();
      expect(await hasIndex(), `${script} after the restart`).to.equal(indexed);
      // Without the checkpoint every SPARQL request now failed with SQ156 until a person stepped in.
      await readBack(await create());
      await readBack(before);
    }
  });

  it('ships a virtuoso.ini that listens on 127.0.0.1 only', () => {
    const ini = readFileSync(join(projectRoot, 'deploy', 'virtuoso.ini'), 'utf8');
    const ports = [...ini.matchAll(/^\s*ServerPort\s*=\s*(\S+)/gm)].map((m) => m[1]);
    expect(ports).to.have.length(2);
    for (const port of ports) expect(port).to.match(/^127\.0\.0\.1:\d+$/);
  });
});

describe('deploy/haproxy.cfg', () => {
  it('is accepted by haproxy -c, with retries on connection failures and redispatch', async function () {
    if (haproxyMissing()) this.skip(); // reason: no HAProxy here; .ci/run installs it from Debian
    const file = join(projectRoot, 'deploy', 'haproxy.cfg');
    const child = spawn('/usr/sbin/haproxy', ['-c', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, output).to.equal(0);
    expect(output).to.include('Configuration file is valid');
    const text = readFileSync(file, 'utf8');
    expect(text).to.match(/^\s*retry-on .*conn-failure/m);
    expect(text).to.match(/^\s*option redispatch/m);
  });

  it('has a systemd unit that restarts the node', () => {
    const unit = join(projectRoot, 'deploy', 'dataspace.service');
    expect(existsSync(unit)).to.equal(true);
    expect(readFileSync(unit, 'utf8')).to.match(/^Restart=always$/m);
  });
});
