import { expect } from 'chai';
import type { Accepted } from '../../../../src/core/catalog/accepted.js';
import { acceptedNote, POLICIES_CHANGED, systemEventNote, type ChangeNote } from '../../../../src/core/catalog/change-notes.js';
import { ChangeClock } from '../../../../src/core/policy/change-clock.js';
import { readCacheFollower } from '../../../../src/core/views/cache-follower.js';

const RECORD = 'urn:uuid:10000000-0000-4000-8000-000000000001';
const OTHER = 'urn:uuid:10000000-0000-4000-8000-000000000002';
const ENTRY = 'urn:uuid:30000000-0000-4000-8000-000000000001';

function accepted(kind: Accepted['kind'], graph: string): Accepted {
  return {
    kind,
    activityType: kind === 'consignment' ? 'Create' : 'Add',
    graph,
    consignment: {
      consignment: RECORD,
      owner: 'did:web:a.example',
      globalId: 'GID-1',
      identifier: 'C-1',
      stateGraph: 'urn:uuid:state',
      created: '',
      status: '',
      seq: 1,
    },
  };
}

/** What one commit's notes move: consignment and id versions, the policy epoch, the rendered graphs dropped. */
function follow(notes: ChangeNote[]) {
  const clock = new ChangeClock(1024);
  const invalidated: string[] = [];
  const before = {
    record: clock.consignment(RECORD),
    other: clock.consignment(OTHER),
    globalId: clock.id('GID-1'),
    entry: clock.id(ENTRY),
    policies: clock.policies,
  };
  readCacheFollower(clock, {
    invalidate: (graph: string) => {
      invalidated.push(graph);
    },
  })({ seq: 1, change: { ops: [] }, notes });
  return {
    record: clock.consignment(RECORD) - before.record,
    other: clock.consignment(OTHER) - before.other,
    globalId: clock.id('GID-1') - before.globalId,
    entry: clock.id(ENTRY) - before.entry,
    policies: clock.policies - before.policies,
    invalidated,
  };
}

describe('views: the read caches follow the change feed by its notes', () => {
  const rows: { note: string; notes: ChangeNote[]; moves: Partial<ReturnType<typeof follow>> }[] = [
    {
      note: 'a Create',
      notes: [acceptedNote(accepted('consignment', 'urn:uuid:state'), ENTRY)],
      moves: { record: 1, globalId: 1, entry: 1, invalidated: ['urn:uuid:state'] },
    },
    {
      note: 'an event (may rewrite the state graph too)',
      notes: [acceptedNote(accepted('event', 'urn:uuid:event'), ENTRY)],
      moves: { record: 1, globalId: 0, entry: 1, invalidated: ['urn:uuid:event', 'urn:uuid:state'] },
    },
    {
      note: 'a document',
      notes: [acceptedNote(accepted('document', 'urn:uuid:doc'), ENTRY)],
      moves: { record: 1, globalId: 0, invalidated: ['urn:uuid:doc'] },
    },
    { note: 'a system event of signal delivery', notes: [systemEventNote(OTHER)], moves: { record: 0, other: 1, invalidated: [] } },
    { note: 'a policy change', notes: [POLICIES_CHANGED], moves: { record: 0, policies: 1, invalidated: [] } },
    { note: 'no note (bookkeeping: outbox, registry)', notes: [], moves: { record: 0, other: 0, policies: 0, invalidated: [] } },
  ];
  for (const row of rows) {
    it(`${row.note}`, () => {
      expect(follow(row.notes)).to.deep.include(row.moves);
    });
  }
});
