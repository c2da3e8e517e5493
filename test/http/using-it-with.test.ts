import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/core/project-paths.js';
import { TestNode, USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';
import { scratchDir } from '../helpers/scratch-dirs.js';

const run = promisify(execFile);
const METRICS_TOKEN = 'metrics-token-0123456789';

/** The blocks of docs/using-it-with.md marked `<!-- tested: name -->`, by name. */
function testedBlocks(): Map<string, string> {
  const text = readFileSync(join(projectRoot, 'docs', 'using-it-with.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const [, name, code] of text.matchAll(/<!-- tested: ([\w-]+) -->\n```\w+\n([\s\S]*?)```/g)) blocks.set(name!, code!);
  return blocks;
}

type Runner = (code: string, env: NodeJS.ProcessEnv, dir: string) => Promise<string>;

const shell: Runner = async (code, env) => (await run('bash', ['-euo', 'pipefail', '-c', code], { env })).stdout;
/** A module beside the project's node_modules, so `@comunica/query-sparql` resolves as in a user's project. */
const nodeModule: Runner = async (code, env, dir) => {
  const file = join(projectRoot, 'dist', `snippet-${dir.split('-').at(-1)}.mjs`);
  writeFileSync(file, code);
  try {
    return (await run(process.execPath, [file], { env })).stdout;
  } finally {
    rmSync(file, { force: true });
  }
};
const promtoolConfig: Runner = async (code, env, dir) => {
  writeFileSync(join(dir, 'prometheus.yml'), code);
  writeFileSync(join(dir, 'dataspace-metrics-token'), env.METRICS_TOKEN!);
  return (await run('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { env })).stdout;
};

/** One row per tested snippet: how it runs, and what its output must show. */
const SNIPPETS: Record<string, { runner: Runner; expect: (out: string, env: NodeJS.ProcessEnv) => void }> = {
  'curl-login': { runner: shell, expect: (out) => expect(out.trim()).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/) },
  'curl-sparql': {
    runner: shell,
    expect: (out, env) => expect(JSON.parse(out).results.bindings.map((b: any) => b.id.value)).to.include(env.GLOBAL_ID),
  },
  'curl-turtle': {
    runner: shell,
    expect: (out, env) =>
      expect(out)
        .to.include(env.GLOBAL_ID)
        .and.to.match(/@prefix/),
  },
  'comunica-endpoint': { runner: nodeModule, expect: (out, env) => expect(out.trim().split('\n')).to.include(env.GLOBAL_ID) },
  'comunica-union': { runner: nodeModule, expect: (out) => expect(out.trim().split('\n')).to.deep.equal(['svc:despatched']) },
  'prometheus-config': { runner: promtoolConfig, expect: (out) => expect(out).to.include('SUCCESS') },
  'promtool-metrics': { runner: shell, expect: (out) => expect(out.trim()).to.equal('') },
};

/**
 * docs/using-it-with.md's snippets run as written against a node: curl and promtool from the system
 * (.ci/run installs promtool), Comunica from the project's own npm dependencies (issue 36).
 */
describe('docs/using-it-with.md: the snippets work', function () {
  this.timeout(120_000);
  let node: TestNode;
  let env: NodeJS.ProcessEnv;
  const blocks = testedBlocks();

  before(async () => {
    node = await TestNode.start({ DATASPACE_METRICS_TOKEN: METRICS_TOKEN });
    const c = consignment();
    expect((await node.publish('forwarder', activity('Create', USERS.forwarder.org, c))).status).to.equal(201);
    expect((await node.publish('forwarder', activity('Add', USERS.forwarder.org, event('svc:despatched'), target(c)))).status).to.equal(
      201,
    );
    env = {
      PATH: process.env.PATH,
      NODE_URL: node.url,
      TOKEN: await node.login('forwarder'),
      GLOBAL_ID: c.globalId,
      EMAIL: USERS.forwarder.email,
      PASSWORD: USERS.forwarder.password,
      METRICS_TOKEN,
    };
  });
  after(async () => {
    await node?.stop();
  });

  it('marks exactly the snippets this test knows how to run', () => {
    expect([...blocks.keys()].sort()).to.deep.equal(Object.keys(SNIPPETS).sort());
  });

  for (const [name, { runner, expect: check }] of Object.entries(SNIPPETS)) {
    it(`runs ${name}`, async () => {
      const code = blocks.get(name);
      expect(code, `no block marked tested: ${name}`).to.be.a('string');
      check(await runner(code!, env, scratchDir(`snippet-${name}-`)), env);
    });
  }

  it('without unionDefaultGraph, Comunica finds no rows in a consignment URL (why the docs say to set it)', async () => {
    const code = blocks.get('comunica-union')!.replace(', unionDefaultGraph: true', '');
    expect(code).to.not.include('unionDefaultGraph');
    expect((await nodeModule(code, env, scratchDir('snippet-no-union-'))).trim()).to.equal('');
  });
});
