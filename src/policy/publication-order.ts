import type { Accepted } from '../activities/accepted.js';
import type { Principal } from '../auth/principal.js';
import type { QueryBank } from '../queries/query-bank.js';
import { iri, list, str } from '../queries/query-bank.js';
import type { Bindings, QuadStore } from '../store/quad-store.js';
import type { CandidateSource } from './visibility.js';
import type { DocumentCandidate, VisibleConsignment, VisibleDocumentRow } from './visible-records.js';
import type { ChangeClock } from './change-clock.js';
import { coverageBindings, coverageKey } from './coverage-subject.js';
import { insert, merged, remove } from './seq-lists.js';

interface ConsignmentEntry {
  seq: number;
  iri: string;
  owner: string;
  locations: Set<string>;
}

interface DocumentEntry {
  seq: number;
  iri: string;
  consignment: ConsignmentEntry;
}

/** One permission naming the principal's role with its country or one of its locations (policy/grants.rq). */
interface GrantRow {
  permission: string;
  grantor: string;
  location?: string;
  narrowedTo?: string;
}

/** What the policies grant a principal, as far as choosing candidates needs it. */
interface Grants {
  org: string;
  /** Owners whose every consignment is granted. */
  owners: Set<string>;
  /** Owner → locations: consignments of the owner routed through one of them. */
  located: Map<string, Set<string>>;
  /** Listed consignments (record IRI → the owners who listed it). */
  listed: Map<string, Set<string>>;
}

const MAX_BATCH = 1024;

/**
 * Consignments and documents in publication order, per owner and per route location, so a list page
 * costs what it shows rather than what the store holds: Oxigraph has no ordered index to page a
 * SPARQL ORDER BY with, and sorting every visible consignment per page took ~0.3 s at 10k.
 *
 * It only proposes candidates, narrowed from the policies that name the caller; every candidate is
 * then decided by the coverage rule in SPARQL (views/visible-*.rq), so a stale entry can cost a page
 * a little work but never show anything. It follows the node's writes (`accepted`, wired to the
 * inbox), so it serves only a store that this process alone writes: the embedded one.
 */
export class PublicationOrder implements CandidateSource {
  private readonly byIri = new Map<string, ConsignmentEntry>();
  private readonly byOwner = new Map<string, ConsignmentEntry[]>();
  private readonly byLocation = new Map<string, ConsignmentEntry[]>();
  private readonly documents = new Set<string>();
  private readonly documentsByOwner = new Map<string, DocumentEntry[]>();
  private loaded: Promise<void> | undefined;
  private readonly pendingConsignments = new Set<string>();
  private readonly pendingRevisions = new Set<string>();
  /** The permissions naming each kind of principal, while no policy changed (with a clock). */
  private readonly grantRows = new Map<string, { epoch: number; rows: GrantRow[] }>();

  constructor(private readonly store: QuadStore, private readonly queries: QueryBank, private readonly clock?: ChangeClock) {}

  /** Notes a write; the entries it touched are refreshed before the next page. */
  accepted(accepted: Accepted): void {
    if (!this.loaded) return;
    if (accepted.kind === 'consignment') this.pendingConsignments.add(accepted.consignment.consignment);
    if (accepted.kind === 'document') this.pendingRevisions.add(accepted.graph);
  }

  private async ready(): Promise<void> {
    this.loaded ??= this.load();
    await this.loaded;
    if (this.pendingConsignments.size > 0) {
      const consignments = [...this.pendingConsignments];
      this.pendingConsignments.clear();
      this.addConsignments(await this.store.select(this.queries.bind('policy/publication-order-of', { consignments: list(consignments.map(iri)) })));
    }
    if (this.pendingRevisions.size > 0) {
      const revisions = [...this.pendingRevisions];
      this.pendingRevisions.clear();
      this.addDocuments(await this.store.select(this.queries.bind('policy/document-order-of', { revisions: list(revisions.map(iri)) })));
    }
  }

  // Three plain patterns rather than one join: at 100k consignments the join took ~5 s, these ~2 s.
  // Lists are filled unsorted and sorted once: inserting 100k entries one by one in place is quadratic.
  private async load(): Promise<void> {
    for (const row of await this.store.select(this.queries.text('policy/publication-order'))) {
      const consignment = row.get('consignment')!.value;
      if (this.byIri.has(consignment)) continue;
      const entry: ConsignmentEntry = { seq: Number(row.get('seq')!.value), iri: consignment, owner: row.get('owner')!.value, locations: new Set() };
      this.byIri.set(consignment, entry);
      let owned = this.byOwner.get(entry.owner);
      if (!owned) this.byOwner.set(entry.owner, owned = []);
      owned.push(entry);
    }
    for (const row of await this.store.select(this.queries.text('policy/route-locations'))) {
      const entry = this.byIri.get(row.get('consignment')!.value);
      const location = row.get('location')!.value;
      if (!entry || entry.locations.has(location)) continue;
      entry.locations.add(location);
      let routed = this.byLocation.get(location);
      if (!routed) this.byLocation.set(location, routed = []);
      routed.push(entry);
    }
    for (const lists of [this.byOwner, this.byLocation]) for (const entries of lists.values()) entries.sort((a, b) => a.seq - b.seq);
    this.addDocuments(await this.store.select(this.queries.text('policy/document-order')));
  }

  private entry(consignment: string, owner: string, seq: number): ConsignmentEntry {
    let entry = this.byIri.get(consignment);
    if (!entry) {
      entry = { seq, iri: consignment, owner, locations: new Set() };
      this.byIri.set(consignment, entry);
      let owned = this.byOwner.get(owner);
      if (!owned) this.byOwner.set(owner, owned = []);
      insert(owned, entry);
    }
    return entry;
  }

  /** Moves the entry between location lists: an Update may change the route. */
  private route(entry: ConsignmentEntry, locations: Set<string>): void {
    for (const old of entry.locations) if (!locations.has(old)) remove(this.byLocation.get(old), entry);
    for (const location of locations) {
      if (entry.locations.has(location)) continue;
      let routed = this.byLocation.get(location);
      if (!routed) this.byLocation.set(location, routed = []);
      insert(routed, entry);
    }
    entry.locations = locations;
  }

  private addConsignments(rows: Bindings[]): void {
    const routes = new Map<ConsignmentEntry, Set<string>>();
    for (const row of rows) {
      const entry = this.entry(row.get('consignment')!.value, row.get('owner')!.value, Number(row.get('seq')!.value));
      let locations = routes.get(entry);
      if (!locations) routes.set(entry, locations = new Set());
      const location = row.get('location')?.value;
      if (location) locations.add(location);
    }
    for (const [entry, locations] of routes) this.route(entry, locations);
  }

  private addDocuments(rows: Bindings[]): void {
    const touched = new Set<DocumentEntry[]>();
    for (const row of rows) {
      const document = row.get('document')!.value;
      const consignment = this.byIri.get(row.get('consignment')!.value);
      if (this.documents.has(document) || !consignment) continue;
      this.documents.add(document);
      let owned = this.documentsByOwner.get(consignment.owner);
      if (!owned) this.documentsByOwner.set(consignment.owner, owned = []);
      owned.push({ seq: Number(row.get('seq')!.value), iri: document, consignment });
      touched.add(owned);
    }
    for (const owned of touched) owned.sort((a, b) => a.seq - b.seq);
  }

  /** The permissions naming the principal's role and country or locations; they change only with a policy. */
  private async permissions(principal: Principal): Promise<GrantRow[]> {
    const key = this.clock && coverageKey(principal);
    const epoch = this.clock?.policies;
    const hit = key === undefined ? undefined : this.grantRows.get(key);
    if (hit && hit.epoch === epoch) return hit.rows;
    const rows = (await this.store.select(this.queries.bind('policy/grants', coverageBindings(principal)))).map((row): GrantRow => ({
      permission: row.get('permission')!.value,
      grantor: row.get('grantor')!.value,
      location: row.get('location')?.value,
      narrowedTo: row.get('narrowedTo')?.value,
    }));
    // Organisations are few (the registry's), so one entry each stays small.
    if (key !== undefined && epoch !== undefined) this.grantRows.set(key, { epoch, rows });
    return rows;
  }

  private async grants(principal: Principal): Promise<Grants> {
    const grants: Grants = { org: principal.org.id, owners: new Set(), located: new Map(), listed: new Map() };
    if (principal.org.role === 'freightForwarder') return grants;
    const rows = await this.permissions(principal);
    const narrowed = new Set(rows.filter((r) => r.narrowedTo).map((r) => r.permission));
    const listedBy = new Map<string, Set<string>>();
    for (const { permission, grantor, location, narrowedTo: listedId } of rows) {
      if (listedId) {
        let owners = listedBy.get(listedId);
        if (!owners) listedBy.set(listedId, owners = new Set());
        owners.add(grantor);
      } else if (narrowed.has(permission)) {
        continue;
      } else if (location) {
        let at = grants.located.get(grantor);
        if (!at) grants.located.set(grantor, at = new Set());
        at.add(location);
      } else {
        grants.owners.add(grantor);
      }
    }
    // Listed globalIds are looked up on every page: a consignment may be created with one later.
    if (listedBy.size > 0) {
      const ids = this.queries.bind('policy/consignments-by-global-id', { globalIds: list([...listedBy.keys()].map(str)) });
      for (const row of await this.store.select(ids)) grants.listed.set(row.get('consignment')!.value, listedBy.get(row.get('globalId')!.value)!);
    }
    return grants;
  }

  /** Whether the policies, read in JS, would let the principal see the consignment: a superset of coverage. */
  private candidate(grants: Grants, entry: ConsignmentEntry): boolean {
    if (entry.owner === grants.org || grants.owners.has(entry.owner)) return true;
    if (grants.listed.get(entry.iri)?.has(entry.owner)) return true;
    const at = grants.located.get(entry.owner);
    if (at) for (const location of at) if (entry.locations.has(location)) return true;
    return false;
  }

  private consignmentLists(grants: Grants): ConsignmentEntry[][] {
    const lists: ConsignmentEntry[][] = [];
    for (const owner of [grants.org, ...grants.owners]) lists.push(this.byOwner.get(owner) ?? []);
    for (const locations of grants.located.values()) for (const location of locations) lists.push(this.byLocation.get(location) ?? []);
    const listed = [...grants.listed.keys()].map((iri) => this.byIri.get(iri)).filter((e): e is ConsignmentEntry => e !== undefined);
    lists.push(listed.sort((a, b) => a.seq - b.seq));
    return lists;
  }

  private documentLists(grants: Grants): DocumentEntry[][] {
    const owners = new Set([grants.org, ...grants.owners, ...grants.located.keys()]);
    for (const iri of grants.listed.keys()) {
      const entry = this.byIri.get(iri);
      if (entry) owners.add(entry.owner);
    }
    return [...owners].map((owner) => this.documentsByOwner.get(owner) ?? []);
  }

  /** Pages through candidates, asking `verify` (the coverage rule) which are readable, until `limit` are found or none are left. */
  private async page<C, R>(stream: Iterator<C>, limit: number, verify: (candidates: C[]) => Promise<R[]>): Promise<R[]> {
    const found: R[] = [];
    let batch = limit;
    for (;;) {
      const candidates: C[] = [];
      while (candidates.length < batch) {
        const next = stream.next();
        if (next.done) break;
        candidates.push(next.value);
      }
      if (candidates.length === 0) return found;
      found.push(...await verify(candidates));
      if (found.length >= limit) return found.slice(0, limit);
      // Candidates turned out unreadable (a stale entry): look further, in larger steps.
      batch = Math.min(MAX_BATCH, Math.max(batch * 2, limit - found.length));
    }
  }

  async consignmentPage(principal: Principal, afterSeq: number, limit: number, verify: (candidates: string[]) => Promise<VisibleConsignment[]>): Promise<VisibleConsignment[]> {
    await this.ready();
    const grants = await this.grants(principal);
    const stream = (function* (self: PublicationOrder) {
      for (const entry of merged(self.consignmentLists(grants), afterSeq)) if (self.candidate(grants, entry)) yield entry.iri;
    })(this);
    return this.page(stream, limit, verify);
  }

  async documentPage(principal: Principal, afterSeq: number, limit: number, verify: (candidates: DocumentCandidate[]) => Promise<VisibleDocumentRow[]>): Promise<VisibleDocumentRow[]> {
    await this.ready();
    const grants = await this.grants(principal);
    const stream = (function* (self: PublicationOrder): Generator<DocumentCandidate> {
      for (const entry of merged(self.documentLists(grants), afterSeq)) {
        if (self.candidate(grants, entry.consignment)) yield { document: entry.iri, consignment: entry.consignment.iri, docSeq: entry.seq };
      }
    })(this);
    return this.page(stream, limit, verify);
  }
}
