import { createHash } from 'node:crypto';
import type { QueryBank } from '../queries/query-bank.js';
import { GRAPHS, RDF_TYPE, svc, XSD } from '../rdf/namespaces.js';
import { NQuadsBuilder } from '../rdf/nquads.js';
import { iriToString } from '../rdf/terms.js';
import type { Registry } from '../registry/registry.js';
import type { QuadStore } from '../ports/quad-store.js';
import { HostPolicy } from '../documents/host-policy.js';
import { destinationRefusal } from './endpoint-policy.js';
import { stamp } from '../rdf/date-times.js';

export interface Endpoint {
  url: string;
  secret?: string;
  /** From the seed file: the operator's own choice, not held to DATASPACE_NOTIFY_ALLOW. */
  trusted?: boolean;
}

const endpointIri = (organisation: string): string =>
  `urn:dataspace:endpoint:${createHash('sha256').update(organisation).digest('hex').slice(0, 32)}`;

/**
 * Where each organisation's signals go. An endpoint an organisation registered itself is kept apart
 * from its registry entry (in the outbox graph), because the seed is applied again at every start and
 * would otherwise wipe it; the registered one wins over the seed's notificationUrl/notificationSecret.
 */
export class NotificationEndpoints {
  private registered = new Map<string, Endpoint>();

  constructor(
    private readonly store: QuadStore,
    private readonly queries: QueryBank,
    private readonly registry: Registry,
    /** DATASPACE_NOTIFY_ALLOW as a decision; public hosts only when not given. */
    private readonly policy = new HostPolicy(['*']),
  ) {}

  /** Why `url` may not be registered over the API, or undefined (see endpoint-policy.ts). */
  refusal(url: URL): Promise<string | undefined> {
    return destinationRefusal(this.policy, url);
  }

  async load(): Promise<void> {
    const rows = await this.store.select(this.queries.text('notify/endpoints'));
    this.registered = new Map(
      rows.map((row) => [row.get('organisation')!.value, { url: row.get('url')!.value, secret: row.get('secret')?.value }]),
    );
  }

  of(organisation: string): Endpoint | undefined {
    const registered = this.registered.get(organisation);
    if (registered) return registered;
    const org = this.registry.organisation(organisation);
    return org?.notificationUrl ? { url: org.notificationUrl, secret: org.notificationSecret, trusted: true } : undefined;
  }

  async register(organisation: string, endpoint: Endpoint, now = new Date()): Promise<void> {
    const e = endpointIri(organisation);
    const b = new NQuadsBuilder(GRAPHS.outbox)
      .iri(e, RDF_TYPE, svc('NotificationEndpoint'))
      .iri(e, svc('organisation'), organisation)
      .literal(e, svc('notificationUrl'), endpoint.url)
      .literal(e, svc('updated'), stamp(now), `${XSD}dateTime`);
    if (endpoint.secret !== undefined) b.literal(e, svc('notificationSecret'), endpoint.secret);
    const { durable } = await this.store.commit({
      ops: [
        { op: 'deleteMatching', subject: iriToString(e), predicate: null, object: null, graph: GRAPHS.outbox },
        { op: 'insert', nquads: b.toString() },
      ],
      // One endpoint an organisation, replaced: charged for its bytes and the node's capacity.
      charge: { organisation },
    });
    await durable;
    this.registered.set(organisation, { url: endpoint.url, secret: endpoint.secret });
  }
}
