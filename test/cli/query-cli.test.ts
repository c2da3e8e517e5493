import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment } from '../helpers/payloads.js';
import { freePort } from '../helpers/free-port.js';

const CLI = resolve(projectRoot, 'dist', 'src', 'adapters', 'cli', 'query.js');
const SPARQL = '/supply-chain/data-space/sparql';
const QUERY = 'PREFIX unece: <https://vocabulary.uncefact.org/> SELECT ?id WHERE { ?c unece:globalId ?id }';

/** The built `dataspace-query` as a user runs it. */
function dataspaceQuery(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', fail);
    child.once('exit', (code) => ok({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('dataspace-query: progress while it runs, and a failure that names the endpoint and its cause', function () {
  this.timeout(120_000);
  let node: TestNode;
  let globalId: string;

  before(async () => {
    node = await TestNode.start();
    const c = consignment();
    globalId = c.globalId as string;
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
  });
  after(async () => {
    await node?.stop();
  });

  it('prints progress lines on standard error while the query runs, and the answer alone on standard output', async () => {
    const token = await node.login('forwarder');
    const ran = await dataspaceQuery(['--endpoint', `${node.url}${SPARQL}`, '--token', token, '--progress', '0.2', QUERY]);
    expect(ran.code, ran.stderr).to.equal(0);
    // Loading Comunica alone takes longer than 0.2 s, so at least one line comes before the answer.
    expect(ran.stderr).to.match(/^dataspace-query: \d+ s, (preparing the query|\d+\/\d+ requests answered by 1 endpoint)/m);
    expect(ran.stdout).to.include(globalId).and.to.not.include('dataspace-query:');
    const quiet = await dataspaceQuery(['--endpoint', `${node.url}${SPARQL}`, '--token', token, '--progress', '0', QUERY]);
    expect(quiet.code).to.equal(0);
    expect(quiet.stderr).to.equal('');
  });

  it('with no node listening, fails naming the endpoint and ECONNREFUSED, not just "fetch failed"', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}${SPARQL}`;
    const ran = await dataspaceQuery(['--endpoint', endpoint, '--progress', '0', QUERY]);
    expect(ran.code).to.equal(1);
    expect(ran.stderr).to.include(`cannot reach ${endpoint}: ECONNREFUSED`);
    expect(ran.stderr).to.not.include('fetch failed');
  });
});
