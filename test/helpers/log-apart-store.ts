import { GRAPHS } from '../../src/core/rdf/namespaces.js';
import { DelegatingStore } from '../../src/core/store/delegating-store.js';
import { OxigraphStore } from '../../src/adapters/oxigraph/oxigraph-store.js';
import type { Change, ChangeOp, Committed, QueryStore } from '../../src/core/ports/quad-store.js';

const LOG_LINE = ` <${GRAPHS.activityLog}> .`;

/** The part of `op` in the activity-log graph (`apart`) or in any other graph. */
function part(op: ChangeOp, apart: boolean): ChangeOp | undefined {
  if (op.op !== 'insert') return (op.graph === GRAPHS.activityLog) === apart ? op : undefined;
  const lines = op.nquads.split('\n').filter((line) => line.length > 0 && line.endsWith(LOG_LINE) === apart);
  return lines.length === 0 ? undefined : { op: 'insert', nquads: `${lines.join('\n')}\n` };
}

const parts = (change: Change, apart: boolean): Change => ({ ops: change.ops.flatMap((op) => part(op, apart) ?? []) });

/**
 * A store that keeps the activity-log graph in a store of its own (QuadStore.activityLog allows it):
 * each commit's quads go to the store of their graph, and no query the node asks may join the two.
 */
export class LogApartStore extends DelegatingStore {
  constructor(
    readonly main = new OxigraphStore(undefined, 'own'),
    readonly log = new OxigraphStore(undefined, 'own'),
  ) {
    super(main);
  }

  override get activityLog(): QueryStore {
    return this.log;
  }

  override async commit(change: Change): Promise<Committed> {
    const [rest, logged] = [parts(change, false), parts(change, true)];
    const committed = await Promise.all(
      [rest, logged].map((c, i) => (c.ops.length === 0 ? undefined : (i === 0 ? this.main : this.log).commit(c))),
    );
    return { durable: Promise.all(committed.map((c) => c?.durable)).then(() => undefined) };
  }

  override async size(): Promise<number> {
    return (await this.main.size()) + (await this.log.size());
  }
}
