import type { Principal } from '../auth/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import type { GraphInfo } from '../catalog/graph-metadata.js';
import { inScope, ownFirst } from '../policy/visibility.js';
import type { Scope } from '../policy/list-filter.js';
import type { VisibleConsignment } from '../policy/visible-records.js';
import { codeLists, type ResolvedCode } from './code-lists.js';
import type { DocumentsView } from './documents-view.js';
import type { ChangeClock } from '../policy/change-clock.js';
import { consignmentMetadata, type ConsignmentMetadata, type DocumentRow } from './consignment-metadata.js';
import { readPackedConsignment } from './consignment-packed.js';
import { sparqlMetadataTriples, type MetadataTriples } from './metadata-triples.js';
import type { GraphJson } from './graph-json.js';
import type { ConsignmentCache } from './consignment-cache.js';
import { jsonBody, type JsonBody } from './json-body.js';
import { systemEventView, systemEventVisibleTo } from '../catalog/system-events.js';
import { nextTurn } from '../util/next-turn.js';
import { SLICE_MS } from '../util/slices.js';

type Json = Record<string, unknown>;

const asArray = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

function codeText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const v = value as Json;
    if (typeof v['@id'] === 'string') return v['@id'];
    if (typeof v['@value'] === 'string') return v['@value'];
    if (typeof v.id === 'string') return v.id;
  }
  return undefined;
}

/**
 * The node's own stamp on a location operator's match event (svc:generator, spec 2.1) has no term in
 * the bundled contexts, so compaction keeps it prefixed; the view names it like every other field.
 */
const STAMP_KEYS: Readonly<Record<string, string>> = { 'svc:generator': 'generator' };

function plainKeys(json: Json): Json {
  if (!Object.keys(STAMP_KEYS).some((key) => key in json)) return json;
  return Object.fromEntries(Object.entries(json).map(([key, value]) => [STAMP_KEYS[key] ?? key, value]));
}

/** Rec 19 mode from the main-carriage, departure or arrival movement, in that order of preference. */
export function resolveTransportMode(own: Json): ResolvedCode | undefined {
  for (const field of ['mainCarriageTransportMovement', 'atDepartureTransportMovement', 'atArrivalTransportMovement']) {
    for (const movement of asArray(own[field])) {
      const raw = codeText((movement as Json | undefined)?.transportModeCode);
      if (raw) return codeLists.transportMode.resolve(raw);
    }
  }
  return undefined;
}

/** Each utilised equipment with the Rec 28 types of the transport means it names; `identifier` left out when the equipment has none. */
export function resolveTransportEquipment(own: Json): { identifier?: string; transportMeansTypes: ResolvedCode[] }[] {
  return asArray(own.utilizedTransportEquipment).map((item) => {
    const equipment = (item ?? {}) as Json;
    const means = asArray(equipment.specifiedTransportMeans).concat(asArray(equipment.usedTransportMeans));
    const identifier = codeText(equipment.identifier);
    const transportMeansTypes = means
      .map((m) => codeText((m as Json | undefined)?.transportMeansTypeCode))
      .filter((c): c is string => c !== undefined)
      .map((c) => codeLists.transportMeansType.resolve(c));
    return identifier === undefined ? { transportMeansTypes } : { identifier, transportMeansTypes };
  });
}

/** The consignment read view (spec 2.9), assembled from the graphs the caller may see. */
export class ConsignmentView {
  private readonly metadataTriples: MetadataTriples;

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly graphJson: GraphJson,
    private readonly documents: DocumentsView,
    /** Serialised views, when this process sees every write (see ConsignmentCache). */
    private readonly cache?: ConsignmentCache<JsonBody>,
    /** The versions of what is stored about each consignment, when this process sees every write. */
    private readonly clock?: ChangeClock,
  ) {
    this.metadataTriples = sparqlMetadataTriples(store, queries);
  }

  /**
   * The view as the bytes to send. Given that the caller may read the consignment, what it sees
   * depends only on the consignment's data, its organisation (own or shared) and the scope.
   */
  async body(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<JsonBody> {
    const make = async () => jsonBody(await this.render(principal, visible, scope));
    return this.cache ? this.cache.get(visible.consignment, `${principal.org.id}\n${scope}`, make) : make();
  }

  /**
   * The events, framed one graph after another in slices between turns of the event loop: a
   * consignment with hundreds of large events held the loop for seconds when framed in one piece.
   */
  private async events(graphs: readonly GraphInfo[]): Promise<Json[]> {
    const events: Json[] = [];
    let sliceStart = performance.now();
    for (const g of graphs) {
      if (g.kind !== 'Event') continue;
      events.push({ id: g.graph, ...plainKeys(await this.graphJson.of(g.graph, g.root)), publisher: g.publisher, published: g.published });
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    return events;
  }

  async render(principal: Principal, visible: VisibleConsignment, scope: Scope): Promise<Json> {
    const read = this.read(principal, visible, scope);
    // The graphs the view frames, read together where the store answers each request at a cost of its own.
    const graphs = Promise.all([read.graphs, read.documents]).then(async ([gs, docs]) => {
      await this.graphJson.prefetch(
        framedGraphs(
          visible,
          gs,
          docs.filter((d) => inScope(scope, d.publisher, principal)),
        ),
      );
      return gs;
    });
    const [own, events, documents, systemEvents] = await Promise.all([
      graphs.then((gs): Json | Promise<Json> => {
        const state = gs.find((g) => g.kind === 'ConsignmentState');
        return state ? this.graphJson.of(state.graph, visible.globalId) : {};
      }),
      graphs.then((gs) => this.events(gs)),
      Promise.all([read.documents, graphs]).then(([rows]) => this.documents.ofConsignment(principal, visible, scope, rows)),
      read.systemEvents,
    ]);
    const included = asArray(own.includedConsignment);
    delete own.includedConsignment;
    const mode = resolveTransportMode(own);
    return {
      ...own,
      // The root id as sent (pilot E's urn:ucr:…), else the globalId: the path id of 4.4 (docs/decisions.md).
      id: typeof own.id === 'string' ? own.id : visible.globalId,
      globalId: own.globalId ?? visible.globalId,
      identifier: own.identifier ?? visible.identifier,
      owner: visible.owner,
      status: visible.status,
      created: visible.created,
      updated: visible.updated,
      includedConsignments: included,
      documents,
      events,
      systemEvents,
      // Spec 2.9 types it as an object: left out, not null, when no movement names a mode.
      ...(mode === undefined ? {} : { resolvedTransportMode: mode }),
      resolvedTransportEquipment: resolveTransportEquipment(own),
    };
  }

  /**
   * The consignment's graphs, documents and system events within the scope, from one query
   * (views/consignment-metadata.rq) of two plain lookups: the records of its data graphs and
   * documents, and its system events, with all their properties. It replaced two queries (the graph
   * records, then the documents with the events) whose texts a server that plans each one anew
   * (Virtuoso 7.2; every consignment makes new texts) spent most of a first view planning. `visible`
   * is what Visibility.find decided the principal may read: the coverage rule was applied there, and
   * every graph of a readable consignment is readable.
   */
  private read(
    principal: Principal,
    visible: VisibleConsignment,
    scope: Scope,
  ): { graphs: Promise<GraphInfo[]>; documents: Promise<DocumentRow[]>; systemEvents: Promise<Json[]> } {
    const metadata = this.metadata(visible);
    return {
      graphs: metadata.then(({ graphs }) =>
        ownFirst(
          principal,
          graphs.filter((g) => inScope(scope, g.publisher, principal)),
        ),
      ),
      documents: metadata.then(({ documents }) => documents),
      systemEvents: metadata.then(({ systemEvents }) =>
        systemEvents
          .filter((e) => inScope(scope, e.publisher, principal))
          .sort((a, b) => a.seq - b.seq)
          .map((e) => JSON.parse(e.json) as Json)
          .filter((e) => systemEventVisibleTo(e, principal.org.id, visible.owner))
          .map(systemEventView),
      ),
    };
  }

  /**
   * The consignment's metadata (views/consignment-metadata.rq). A view never rendered (its own graph
   * not framed yet) on a SPARQL server reads the data graphs in the same request
   * (views/consignment-packed.rq) and keeps them framed for the render, unless a write about the
   * consignment was committed while the request was out (the render then reads them again).
   */
  private async metadata(visible: VisibleConsignment): Promise<ConsignmentMetadata> {
    if (this.clock && !this.graphJson.readsDirectly && !this.graphJson.has(visible.stateGraph)) {
      const version = this.clock.consignment(visible.consignment);
      const packed = await readPackedConsignment(this.store, this.queries, visible.consignment);
      if (packed) {
        const metadata = consignmentMetadata(packed.metadata);
        if (this.clock.consignment(visible.consignment) === version) {
          await this.graphJson.keep(
            framedGraphs(visible, metadata.graphs, metadata.documents).flatMap(({ graph, root }) => {
              const triples = packed.graphs.get(graph);
              return triples ? [{ graph, root, triples }] : [];
            }),
          );
        }
        return metadata;
      }
    }
    return consignmentMetadata(await this.metadataTriples(visible.consignment, true));
  }
}

/** The data graphs a view frames, with the root of each: its events and state, and its documents' current revisions. */
function framedGraphs(visible: VisibleConsignment, graphs: GraphInfo[], documents: DocumentRow[]): { graph: string; root: string }[] {
  return [
    ...graphs
      .filter((g) => g.kind !== 'DocumentRevision')
      .map((g) => ({ graph: g.graph, root: g.kind === 'ConsignmentState' ? visible.globalId : g.root })),
    ...documents.map((d) => ({ graph: d.current, root: d.current })),
  ];
}
