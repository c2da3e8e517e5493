import type { Principal } from '../auth/principal.js';
import type { Scope } from '../policy/list-filter.js';
import type { Visibility } from '../policy/visibility.js';
import type { VisibleConsignment } from '../policy/visible-records.js';
import { threadScript } from '../project-paths.js';
import { FairSlots } from '../util/fair-slots.js';
import { nextTurn } from '../util/next-turn.js';
import { oneShotThread } from '../util/one-shot-thread.js';
import { SLICE_MS } from '../util/slices.js';
import { writeExport, type GraphTextOf } from './export-writer.js';
import type { GraphTextReader } from './graph-text.js';
import type { RdfFormat, RdfRepresentation } from './rdf-formats.js';

/** Exports of at least this much graph text are written on a thread of their own. */
export const EXPORT_THREAD_MIN_CHARS = 256 * 1024;

/**
 * A consignment as RDF: exactly the data graphs the caller may see in the scope, each as its own named
 * graph, read one graph at a time as text (no other graph can slip in) in slices between turns of the
 * event loop. Writing it (canonical blank-node labels, the syntax, JSON-LD compaction) costs seconds
 * for a consignment of a few MB (the figures: bench/results/2026-12-07-comment-figures.md), so a large export is written on a
 * thread, in turns by organisation (`slots`), and a small one here.
 */
export class RdfExport {
  constructor(
    private readonly visibility: Visibility,
    private readonly graphText: GraphTextReader,
    /** Large exports are written on threads: two at once, one per organisation, a few waiting each. */
    private readonly slots = new FairSlots({ slots: 2, perOwner: 1, waitingPerOwner: 4, what: 'large RDF exports' }),
    private readonly threadMinChars = EXPORT_THREAD_MIN_CHARS,
  ) {}

  async write(
    principal: Principal,
    visible: VisibleConsignment,
    scope: Scope,
    format: RdfFormat,
    contextUrl: string,
  ): Promise<RdfRepresentation> {
    const graphs: GraphTextOf[] = [];
    let chars = 0;
    let sliceStart = performance.now();
    for (const { graph } of await this.visibility.graphs(principal, visible, scope)) {
      const text = await this.graphText(graph);
      graphs.push({ graph, text });
      chars += text.length;
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    if (chars < this.threadMinChars) return writeExport(graphs, format, contextUrl);
    return this.slots.run(principal.org.id, () =>
      oneShotThread<RdfRepresentation>(threadScript('core/views/export-thread.js'), { graphs, format, contextUrl }, 'RDF export'),
    );
  }
}
