import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/core/project-paths.js';
import { scratchDir } from '../helpers/scratch-dirs.js';
import { QueryEngine } from '@comunica/query-sparql';
import { main, runQuery, tokenFetch } from '../../src/adapters/cli/query.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';

const SPARQL = '/supply-chain/data-space/sparql';
const EVENTS_OF = (globalId: string) => `PREFIX unece: <https://vocabulary.uncefact.org/>
PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
SELECT ?event ?code WHERE { ?c unece:globalId "${globalId}" ; svc:event ?event . ?event unece:typeCode ?code }`;

type Json = Record<string, any>;

/** Comunica (4.x, which runs on Node 20) as a real SPARQL client of one node and of several at once. */
describe('Comunica against the SPARQL endpoint', () => {
  let a: TestNode;
  let b: TestNode;
  let onA: Json;
  let onB: Json;

  before(async () => {
    [a, b] = await Promise.all([TestNode.start(), TestNode.start()]);
    onA = consignment();
    onB = consignment();
    expect((await a.publish('forwarder', activity('Create', USERS.forwarder.org, onA))).body.status).to.equal('completed');
    expect((await a.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(onA)))).body.status).to.equal(
      'completed',
    );
    expect((await b.publish('otherForwarder', activity('Create', USERS.otherForwarder.org, onB))).body.status).to.equal('completed');
    expect(
      (await b.publish('otherForwarder', activity('Add', USERS.otherForwarder.org, event('svc:carrierBooking'), target(onB)))).body.status,
    ).to.equal('completed');
  });
  after(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });

  it('asks one node for the events of a consignment with a Bearer token, and sees nothing without one it may use', async () => {
    const engine = new QueryEngine();
    const url = `${a.url}${SPARQL}`;
    const run = async (token: string) =>
      (
        await engine.queryBindings(EVENTS_OF(onA.globalId), {
          sources: [{ type: 'sparql', value: url }],
          fetch: tokenFetch([{ url, token }]),
        })
      ).toArray();
    const rows = await run(await a.login('forwarder'));
    expect(rows.map((r) => r.get('code')!.value)).to.deep.equal(['svc:despatched']);
    expect(await run(await a.login('otherForwarder'))).to.have.length(0);
  });

  it('runs one query over two nodes with a token per node (dataspace-query)', async () => {
    const nodeA = { url: `${a.url}${SPARQL}`, token: await a.login('forwarder') };
    const nodeB = { url: `${b.url}${SPARQL}`, token: await b.login('otherForwarder') };
    const endpoints = [nodeA, nodeB];
    const query = `PREFIX unece: <https://vocabulary.uncefact.org/>
PREFIX svc: <https://w3id.org/supply-chain-dataspace/ns#>
SELECT ?id ?code WHERE { ?c unece:globalId ?id ; svc:event ?e . ?e unece:typeCode ?code } ORDER BY ?code`;
    const json = JSON.parse(await runQuery(query, endpoints, 'application/sparql-results+json'));
    expect(json.results.bindings.map((r: Json) => [r.id.value, r.code.value])).to.deep.equal([
      [onB.globalId, 'svc:carrierBooking'],
      [onA.globalId, 'svc:despatched'],
    ]);
    const table = await runQuery(query, endpoints);
    expect(table).to.match(/\?id\s+\| \?code/);
    expect(table).to.include('(2 rows)');
    // Without node b's token, node b shows nothing: only node a's row is left.
    const partial = JSON.parse(
      await runQuery(query, [nodeA, { url: nodeB.url, token: await b.login('forwarder') }], 'application/sparql-results+json'),
    );
    expect(partial.results.bindings).to.have.length(1);
  });

  it('refuses bad usage with exit code 2', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (text: string) => {
      errors.push(text);
    };
    try {
      expect(await main(['--token', 'x', 'SELECT * {}'])).to.equal(2);
      expect(await main(['SELECT * {}'])).to.equal(2);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).to.match(/--endpoint/);
  });

  it('says how to install Comunica where a production install left it out, exit code 1', async () => {
    // The command's own files alone, where no node_modules holds Comunica.
    const dir = scratchDir('query-without-comunica-');
    for (const file of ['query.js', 'query-progress.js', 'is-main.js'])
      copyFileSync(join(projectRoot, 'dist', 'src', 'adapters', 'cli', file), join(dir, file));
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    const run = promisify(execFile)(process.execPath, [join(dir, 'query.js'), '--endpoint', 'http://127.0.0.1:9/sparql', 'ASK {}']);
    const failed = await run.then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).to.equal(1);
    expect(failed?.stderr).to.include('npm install --no-save @comunica/query-sparql@^4.5.0');
  });
});
