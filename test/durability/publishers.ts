import { expect } from 'chai';
import type { ChildNode } from './child-node.js';
import { USERS } from '../helpers/test-node.js';
import { activity, consignment, event, target } from '../helpers/payloads.js';

/** Concurrent publishers against a child node and the check that nothing acknowledged was lost (shared by the SIGKILL tests). */
const INBOX = '/supply-chain/data-space/inbox';
const consignmentPath = (id: string) => `/supply-chain/data-space/consignments/${encodeURIComponent(id)}`;

export interface Sent {
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
export function publishers(node: ChildNode, clients: number) {
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

/** Every acknowledged activity is readable, and whatever else shows is whole. */
export async function verify(node: ChildNode, sent: Sent[]): Promise<{ acknowledged: number; unanswered: number }> {
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
