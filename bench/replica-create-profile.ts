/**
 * Where a Create spends the SPARQL server's time, a single node against a replica set's writer on the
 * same Virtuoso: every request each node process sends (DATASPACE_LOG=debug logs its text and how long
 * the server took to answer it whole), counted and timed per Create, grouped by what it is (the
 * template's first comment line, or an Update as fenced or plain), with Virtuoso's CPU per Create.
 * The set is two replicas, the Creates sent to both (the follower forwards them), each with an
 * activity id (spec 2.1), as a client that retries sends them.
 *
 *   npm run bench:replica-create-profile          (BENCH_PROFILE_CREATES Creates each, 400 by default)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { NodeProcess } from '../test/helpers/node-process.js';
import { Postgres } from '../test/helpers/postgres.js';
import { scratchDir } from '../test/helpers/scratch-dirs.js';
import { Virtuoso } from '../test/helpers/virtuoso.js';
import { runLoad } from './load.js';
import { cpuOf } from './processes.js';
import { activity, consignment } from './payloads.js';
import { BENCH_SEED, BENCH_USERS, login } from './users.js';

const CREATES = Number(process.env.BENCH_PROFILE_CREATES ?? 400);
const INBOX = '/supply-chain/data-space/inbox';

interface Sent {
  kind: string;
  ms: number;
  text: string;
}

/** The debug lines `sparql request` a node logged since `from` (an offset into its log). */
function requests(log: string, from: number): Sent[] {
  const sent: Sent[] = [];
  for (const line of log.slice(from).split('\n')) {
    if (!line.includes('"sparql request"')) continue;
    const fields = JSON.parse(line) as { ms: number; kind: string; text: string | null };
    sent.push({ kind: fields.kind, ms: fields.ms, text: fields.text ?? '' });
  }
  return sent;
}

/** With BENCH_PROFILE_DUMP=<dir>: the largest Update each node sent, to try other forms of it on the server by hand. */
function dump(name: string, sent: Sent[]): void {
  const dir = process.env.BENCH_PROFILE_DUMP;
  const largest = sent.filter((s) => s.kind === 'update').sort((a, b) => b.text.length - a.text.length)[0];
  if (dir && largest) writeFileSync(join(dir, `${name}.ru`), largest.text);
}

/** What a request is: an Update, fenced or not and how many operations; a query by its template's first comment. */
function labelOf(request: Sent): string {
  if (request.kind === 'update') {
    const fenced = request.text.includes('urn:dataspace:replica');
    return `update${fenced ? ' (fenced)' : ''}`;
  }
  const comment = /^#\s*(.+)$/m.exec(request.text)?.[1];
  return `query: ${(comment ?? request.text.replace(/\s+/g, ' ').replace(/^(PREFIX \S+ <[^>]*> )+/, '')).slice(0, 70)}`;
}

/** Creates at 8 connections spread over `urls`, each with its own activity id; the server's CPU per Create. */
async function creates(urls: string[], run: number, virtuosoPid: number): Promise<{ count: number; serverMs: number; perSecond: number }> {
  const before = cpuOf(virtuosoPid);
  let n = 0;
  const results = await Promise.all(
    urls.map(async (url, i) => {
      const token = await login(url, BENCH_USERS.forwarder);
      return runLoad({
        url,
        connections: 8 / urls.length,
        seconds: 0,
        amount: CREATES / urls.length,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        next: () => {
          const body = activity('Create', BENCH_USERS.forwarder.org, consignment(n++, run));
          body.id = `urn:uuid:bench-profile-${run}-${i}-${n}`;
          return { path: INBOX, body: JSON.stringify(body) };
        },
        checkTaskErrors: true,
      });
    }),
  );
  const count = results.reduce((sum, r) => sum + r.count, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.taskErrors + r.errors, 0);
  if (failed > 0) throw new Error(`${failed} Creates failed`);
  return { count, serverMs: (cpuOf(virtuosoPid) - before) / count, perSecond: results.reduce((sum, r) => sum + r.perSecond, 0) };
}

/** One table: each kind of request, its count and the server's answer time per Create. */
function table(title: string, sent: Sent[], creates: number): string {
  const byLabel = new Map<string, { count: number; ms: number }>();
  for (const request of sent) {
    const label = labelOf(request);
    const seen = byLabel.get(label) ?? { count: 0, ms: 0 };
    seen.count++;
    seen.ms += request.ms;
    byLabel.set(label, seen);
  }
  const rows = [...byLabel].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, r]) => sum + r.ms, 0);
  return [
    `\n${title}`,
    '| Request | Per Create | ms per Create (answer time) |',
    '|---|---:|---:|',
    ...rows.map(([label, r]) => `| ${label.replace(/\|/g, '\\|')} | ${(r.count / creates).toFixed(2)} | ${(r.ms / creates).toFixed(2)} |`),
    `| all | ${(sent.length / creates).toFixed(2)} | ${(total / creates).toFixed(2)} |`,
  ].join('\n');
}

async function main(): Promise<void> {
  const [postgres, virtuoso] = await Promise.all([Postgres.start(), Virtuoso.start({ buffers: 100_000 })]);
  const databaseUrl = await postgres.database('dataspace');
  const nodes: NodeProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const node = await NodeProcess.start({
      ...virtuoso.env(),
      DATASPACE_DATA_DIR: join(scratchDir('dataspace-bench-profile-'), 'data'),
      DATASPACE_SEED: BENCH_SEED,
      DATASPACE_LOG: 'debug',
      ...env,
    });
    nodes.push(node);
    return node;
  };
  const out: string[] = [];
  try {
    const single = await start({});
    await single.until(200);
    // Warm-up: the first Creates compile queries and fill caches on both sides.
    await creates([single.url], 50, virtuoso.pid);
    let mark = single.output.length;
    const alone = await creates([single.url], 51, virtuoso.pid);
    dump('single', requests(single.output, mark));
    out.push(
      table(
        `Single node: ${alone.perSecond.toFixed(0)} Creates/s, Virtuoso CPU ${alone.serverMs.toFixed(2)} ms a Create`,
        requests(single.output, mark),
        alone.count,
      ),
    );
    await single.kill('SIGTERM');

    const writer = await start({ DATABASE_URL: databaseUrl });
    await writer.untilRole('writer', 120_000);
    const follower = await start({ DATABASE_URL: databaseUrl });
    await follower.untilRole('follower', 120_000);
    await creates([writer.url, follower.url], 52, virtuoso.pid);
    mark = writer.output.length;
    const followerMark = follower.output.length;
    const set = await creates([writer.url, follower.url], 53, virtuoso.pid);
    const label = `Set of two: ${set.perSecond.toFixed(0)} Creates/s, Virtuoso CPU ${set.serverMs.toFixed(2)} ms a Create`;
    dump('writer', requests(writer.output, mark));
    out.push(table(`${label}; the writer's requests`, requests(writer.output, mark), set.count));
    out.push(table(`${label}; the follower's requests`, requests(follower.output, followerMark), set.count));
  } finally {
    await Promise.all(nodes.map((n) => n.kill('SIGTERM')));
    await Promise.all([virtuoso.stop(), postgres.stop()]);
  }
  const loads = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`\nCreates with activity ids on Virtuoso, ${availableParallelism()} cores, load average ${loads}; ${CREATES} Creates a run`);
  console.log(out.join('\n'));
}

void main();
