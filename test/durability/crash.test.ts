import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildNode } from './child-node.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';

const INBOX = '/supply-chain/data-space/inbox';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

interface Sent {
  kind: 'create' | 'event';
  globalId: string;
  identifier: string;
  /** The activity-log entry, when the node acknowledged with 2xx. */
  entry?: Record<string, any>;
}

/**
 * `clients` concurrent publishers: each creates consignments and adds events to its own earlier ones,
 * until `stop()` says so. Every request is recorded with its answer, or none when the node died first.
 */
function publishers(node: ChildNode, clients: number) {
  const sent: Sent[] = [];
  let running = true;
  const client = async () => {
    const mine: Sent[] = [];
    while (running) {
      const earlier = mine.filter((s) => s.kind === 'create' && s.entry);
      const addEvent = earlier.length > 0 && Math.random() < 0.35;
      const c = addEvent ? earlier[Math.floor(Math.random() * earlier.length)] : undefined;
      const fresh = consignment();
      const record: Sent = c
        ? { kind: 'event', globalId: c.globalId, identifier: c.identifier }
        : { kind: 'create', globalId: fresh.globalId, identifier: fresh.identifier };
      sent.push(record);
      mine.push(record);
      const body = c
        ? activity('Add', USERS.forwarder.org, event('svc:despatched'), target({ globalId: c.globalId, identifier: c.identifier }))
        : activity('Create', USERS.forwarder.org, fresh);
      try {
        const res = await node.as('forwarder', 'POST', INBOX, body);
        if (res.status >= 200 && res.status < 300 && res.body.status === 'completed') record.entry = res.body;
        else if (res.status < 200 || res.status >= 300) throw new Error(`inbox answered ${res.status}: ${JSON.stringify(res.body)}`);
      } catch (error) {
        if (running && !(error instanceof TypeError)) throw error; // TypeError: the connection died with the node
        return;
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, client));
  return {
    sent,
    acknowledged: () => sent.filter((s) => s.entry).length,
    stop: async () => {
      running = false;
      await done.catch(() => undefined);
    },
    done,
  };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((ok) => setTimeout(ok, 5));
  }
}

/** Every acknowledged activity is readable, and whatever else shows is whole. */
async function verify(node: ChildNode, sent: Sent[]): Promise<{ acknowledged: number; unanswered: number }> {
  const events = new Map<string, number>();
  for (const s of sent.filter((x) => x.kind === 'event' && x.entry)) events.set(s.globalId, (events.get(s.globalId) ?? 0) + 1);
  for (const s of sent.filter((x) => x.entry)) {
    const log = await node.as('forwarder', 'GET', `/supply-chain/data-space/activity-logs/${encodeURIComponent(s.entry!.id)}`);
    expect(log.status, `activity ${s.entry!.id} was acknowledged`).to.equal(200);
    expect(log.body).to.deep.equal(s.entry);
  }
  for (const s of sent.filter((x) => x.kind === 'create')) {
    const view = await node.as('forwarder', 'GET', consignmentPath(s.globalId));
    if (s.entry) expect(view.status, `consignment ${s.globalId} was acknowledged`).to.equal(200);
    if (view.status === 404) continue; // never acknowledged and never applied: fine
    expect(view.status).to.equal(200);
    // Whole: the data graph, its metadata and its system event arrived together.
    expect(view.body.identifier).to.equal(s.identifier);
    expect(view.body.consignor).to.deep.equal(consignment().consignor);
    const creates = view.body.systemEvents.filter((e: any) => e.typeCode === 'CREATE');
    expect(creates).to.have.length(1);
    expect(view.body.events.length).to.be.at.least(events.get(s.globalId) ?? 0);
    expect(view.body.systemEvents.filter((e: any) => e.typeCode === 'ADD')).to.have.length(view.body.events.length);
  }
  return { acknowledged: sent.filter((s) => s.entry).length, unanswered: sent.filter((s) => !s.entry).length };
}

describe('durability: SIGKILL under concurrent load loses nothing acknowledged', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'dataspace-crash-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // Kill points: early (log only), later, and with tiny snapshot thresholds so kills land while
  // snapshots are written and logs rotated.
  const runs: { name: string; killAfter: number; env: Record<string, string> }[] = [
    { name: 'after 5 acknowledged, log only', killAfter: 5, env: {} },
    { name: 'after 40 acknowledged, with a snapshot every 16 KiB of log', killAfter: 40, env: { DATASPACE_SNAPSHOT_LOG_BYTES: '16384' } },
  ];
  for (const run of runs) {
    it(`keeps every acknowledged activity: ${run.name}`, async () => {
      const first = await ChildNode.start(dir, run.env);
      const load = publishers(first, 6);
      await Promise.race([until(() => load.acknowledged() >= run.killAfter, 40_000), load.done]);
      await first.kill('SIGKILL');
      await load.stop();
      expect(load.acknowledged()).to.be.at.least(run.killAfter);

      const second = await ChildNode.start(dir, run.env);
      try {
        const result = await verify(second, load.sent);
        expect(result.acknowledged).to.be.at.least(run.killAfter);
        // And it goes on accepting writes after the recovery.
        const more = consignment();
        expect((await second.as('forwarder', 'POST', INBOX, activity('Create', USERS.forwarder.org, more))).status).to.equal(201);
      } finally {
        await second.kill('SIGKILL');
      }
    });
  }

  it('kills twice in a row, with snapshots, and still loses nothing', async () => {
    const env = { DATASPACE_SNAPSHOT_LOG_BYTES: '8192' };
    const sent: Sent[] = [];
    const hasSnapshot = () => readdirSync(dir).some((f) => /^snapshot-\d{8}\.nq$/.test(f));
    for (const [round, killAfter] of [25, 25].entries()) {
      const node = await ChildNode.start(dir, env);
      const load = publishers(node, 4);
      // Snapshots are written in the background, so on a fast machine 25 answers can come before the
      // first one is complete: the second kill waits for one, so it always strikes a node with snapshots.
      await Promise.race([until(() => load.acknowledged() >= killAfter && (round === 0 || hasSnapshot()), 40_000), load.done]);
      await node.kill('SIGKILL');
      await load.stop();
      sent.push(...load.sent);
    }
    expect(hasSnapshot()).to.equal(true);
    const last = await ChildNode.start(dir, env);
    try {
      const result = await verify(last, sent);
      expect(result.acknowledged).to.be.at.least(50);
      expect(last.logLine('store recovered')!.snapshotGeneration).to.be.a('number');
    } finally {
      await last.kill('SIGKILL');
    }
  });
});
