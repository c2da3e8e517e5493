import type { QueryBank } from '../queries/query-bank.js';
import type { QuadStore } from '../ports/quad-store.js';
import type { Principal } from '../auth/principal.js';
import { inScope } from '../policy/visibility.js';
import type { Scope } from '../policy/list-filter.js';
import type { VisibleConsignment } from '../policy/visible-records.js';
import { codeLists } from './code-lists.js';
import type { GraphJson } from './graph-json.js';
import type { BlobStore } from '../ports/blob-store.js';
import { extensionOf, mediaTypeOfExtension } from '../documents/document-files.js';
import type { ConsignmentCache } from './consignment-cache.js';
import { consignmentMetadata, type DocumentRow } from './consignment-metadata.js';
import { sparqlMetadataTriples, type MetadataTriples } from './metadata-triples.js';

export interface DocumentAttachment {
  id: string;
  documentId: string;
  /** Spec 2.9 types these as strings and a number: each is left out, never null, when unknown. */
  documentCode?: string;
  documentType?: string;
  documentRevision: number;
  metadata: { encodingFormat?: string; blobSize?: number; fileExtension?: string };
  href: string;
  history: { id: string; documentRevision: number; href: string }[];
  consignmentId: string;
  publisher: string;
  published: string;
  document: Record<string, unknown>;
}

/** The fields that have a value: the view leaves a field out rather than answer null. */
function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], null | undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null)) as {
    [K in keyof T]?: Exclude<T[K], null | undefined>;
  };
}

/** The bytes of one revision's file, for GET …/documents/{documentId} with a non-JSON Accept. */
export type DocumentFile =
  | { ok: true; bytes: Buffer; encodingFormat: string; fileExtension: string | null; sha256: string; revision: number }
  | { ok: false; reason: string };

/** DocumentAttachment objects (spec 2.9) for the documents of visible consignments. */
export class DocumentsView {
  private readonly metadataTriples: MetadataTriples;

  constructor(
    store: QuadStore,
    queries: QueryBank,
    private readonly graphJson: GraphJson,
    private readonly baseUrl: string,
    private readonly blobs?: BlobStore,
    /** Attachment lists, when this process sees every write (see ConsignmentCache). */
    private readonly cache?: ConsignmentCache<DocumentAttachment[]>,
  ) {
    this.metadataTriples = sparqlMetadataTriples(store, queries);
  }

  /** Every document of the consignment with its revisions and their files, in registration order. */
  private async documents(visible: VisibleConsignment): Promise<DocumentRow[]> {
    return consignmentMetadata(await this.metadataTriples(visible.consignment, false)).documents;
  }
  /** The bytes of a visible document's current revision, or of revision `revision`. */
  async file(principal: Principal, visible: VisibleConsignment, documentId: string, revision?: number): Promise<DocumentFile | undefined> {
    const attachment = (await this.ofConsignment(principal, visible)).find((d) => d.id === documentId || d.documentId === documentId);
    if (!attachment) return undefined;
    const wanted = revision ?? attachment.documentRevision;
    const doc = (await this.documents(visible)).find((d) => d.document === attachment.id);
    const info = doc?.revisions.find((r) => r.revision === wanted)?.file;
    if (info === undefined) return undefined;
    if (!info.sha256)
      return {
        ok: false,
        reason: info.error ? `The file of revision ${wanted} was not fetched: ${info.error}` : `No file was kept for revision ${wanted}`,
      };
    const bytes = await this.blobs?.get(info.sha256);
    if (!bytes) return { ok: false, reason: `The file of revision ${wanted} is not in this node's blob store` };
    return {
      ok: true,
      bytes,
      encodingFormat: info.encodingFormat ?? 'application/octet-stream',
      fileExtension: info.fileExtension ?? null,
      sha256: info.sha256,
      revision: wanted,
    };
  }

  /**
   * The attachments of a consignment the caller may read, limited to the scope. The list is shared
   * between callers and cached: treat it as read-only.
   */
  async ofConsignment(
    principal: Principal,
    visible: VisibleConsignment,
    scope: Scope = 'all',
    rows?: DocumentRow[],
  ): Promise<DocumentAttachment[]> {
    const make = () => this.attachments(principal, visible, scope, rows);
    // Under "all" every reader sees the same list; "own" and "shared" depend on the reader's organisation.
    return this.cache ? this.cache.get(visible.consignment, scope === 'all' ? scope : `${principal.org.id}\n${scope}`, make) : make();
  }

  /** `rows`: the consignment's documents when the caller has read them already (ConsignmentView does, in its one query). */
  private async attachments(
    principal: Principal,
    visible: VisibleConsignment,
    scope: Scope,
    rows?: DocumentRow[],
  ): Promise<DocumentAttachment[]> {
    const docs = (rows ?? (await this.documents(visible))).filter((d) => inScope(scope, d.publisher, principal));
    return Promise.all(docs.map((d) => this.attachment(visible, d)));
  }

  private href(visible: VisibleConsignment, document: string, revision?: number): string {
    const base = `${this.baseUrl}/supply-chain/data-space/consignments/${encodeURIComponent(visible.globalId)}/documents/${encodeURIComponent(document)}`;
    return revision === undefined ? base : `${base}?revision=${revision}`;
  }

  private async attachment(visible: VisibleConsignment, doc: DocumentRow): Promise<DocumentAttachment> {
    const current = doc.revisions.find((r) => r.graph === doc.current) ?? doc.revisions.at(-1);
    // A document record is written in the same commit as its first revision.
    if (current === undefined) throw new Error(`The document ${doc.document} has no revision`);
    const json = await this.graphJson.of(current.graph, current.graph);
    const rawCode =
      typeof json.documentTypeCode === 'string'
        ? json.documentTypeCode
        : ((json.documentTypeCode as { '@id'?: string } | undefined)?.['@id'] ?? null);
    const code = rawCode === null ? undefined : codeLists.document.resolve(rawCode);
    const extension = typeof json.uRIId === 'string' ? extensionOf(json.uRIId) : undefined;
    const file = current.file;
    return {
      id: doc.document,
      documentId: doc.identifier,
      ...defined({ documentCode: code?.code, documentType: code?.label }),
      documentRevision: current.revision,
      metadata: defined({
        encodingFormat: file?.encodingFormat ?? mediaTypeOfExtension(extension),
        blobSize: file?.size,
        fileExtension: file?.fileExtension ?? extension,
      }),
      href: this.href(visible, doc.document),
      history: doc.revisions
        .filter((r) => r.graph !== current.graph)
        .sort((a, b) => b.revision - a.revision)
        .map((r) => ({ id: r.graph, documentRevision: r.revision, href: this.href(visible, doc.document, r.revision) })),
      consignmentId: visible.globalId,
      publisher: doc.publisher,
      published: current.published,
      document: json,
    };
  }
}
