import { Router } from 'express';
import type { ReceivedDeliveries } from '../../../core/notify/received-deliveries.js';
import type { LedgerFilter } from '../../../core/ports/receiver-ledger.js';
import type { Redelivery } from '../../../core/notify/redelivery.js';
import { SIGNAL_TYPES, type SignalType } from '../../../core/notify/signals.js';
import { isSafeIri } from '../../../core/rdf/terms.js';
import { BadRequest, Conflict, NotFound, TooManyRequests } from '../../../core/errors.js';
import { principalOf } from '../authenticate.js';
import { linkNext, queryString, readPage } from '../paging.js';
import { refuseUnknown } from '../list-filters.js';
import { readInstant } from '../query-instant.js';
import { error, json, LINK_NEXT, pagingParameters, pathId, type ApiOperation } from '../api-operation.js';

export interface SignalRouteDeps {
  received: ReceivedDeliveries;
  redelivery: Redelivery;
  baseUrl: string;
  pageLimitDefault: number;
  pageLimitMax: number;
}

const PATH = '/supply-chain/data-space/signals';
/** The parameters of the list; any other is refused, as on every list (list-filters.ts refuseUnknown). */
const LIST_PARAMETERS = ['type', 'since', 'until', 'cursor', 'limit'];
function filterOf(type: string | undefined, since: string | undefined, until: string | undefined): LedgerFilter {
  if (type !== undefined && !SIGNAL_TYPES.includes(type as SignalType))
    throw new BadRequest(`type must be one of ${SIGNAL_TYPES.join(', ')}`);
  return {
    type,
    since: since === undefined ? undefined : readInstant('since', since),
    until: until === undefined ? undefined : readInstant('until', until),
  };
}

/** A signal id as sent in the webhook (urn:uuid:…), or its bare uuid. */
function signalIri(id: string): string {
  const full = id.startsWith('urn:uuid:') ? id : `urn:uuid:${id}`;
  if (!isSafeIri(full)) throw new NotFound(`No signal ${id} was sent to your organisation`);
  return full;
}

/**
 * The signals a party was sent (GET …/signals), newest first, and a way to have one sent again
 * (POST …/signals/{id}/redeliver). Only ever the caller's own: what others were sent, and the
 * consignments' content, stay theirs.
 */
export function signalRoutes(deps: SignalRouteDeps): Router {
  const router = Router();

  router.get(PATH, async (req, res) => {
    const { org } = principalOf(req);
    refuseUnknown(req, LIST_PARAMETERS);
    const filter = filterOf(queryString(req, 'type'), queryString(req, 'since'), queryString(req, 'until'));
    const page = readPage(req, deps.pageLimitDefault, deps.pageLimitMax);
    const before = page.afterSeq === 0 ? undefined : page.afterSeq;
    const { items, next } = await deps.received.page(org.id, filter, page.limit, before);
    linkNext(req, res, deps.baseUrl, next, next !== undefined);
    res.json(items.map(({ seq: _seq, ...item }) => item));
  });

  router.post(`${PATH}/:id/redeliver`, async (req, res) => {
    const { org } = principalOf(req);
    const outcome = await deps.redelivery.request(org.id, signalIri(req.params.id));
    switch (outcome.kind) {
      case 'not-sent':
        throw new NotFound(`No signal ${req.params.id} was sent to your organisation`);
      case 'pending':
        throw new Conflict('That signal is still queued for your endpoint: it is being delivered or retried');
      case 'throttled':
        throw new TooManyRequests(
          'Your organisation asked for too many redeliveries; try again later',
          Math.ceil(outcome.retryAfterMs / 1000),
        );
      case 'queued':
        res.status(202).json({ signal: outcome.signal, receiver: outcome.receiver, state: 'pending' });
    }
  });
  return router;
}

const str = { type: 'string' };
const nullable = (schema: Record<string, unknown>) => ({ anyOf: [schema, { type: 'null' }] });

const RECEIVED_SIGNAL = {
  type: 'object',
  required: ['signal', 'type', 'published', 'globalId', 'state', 'attempts'],
  properties: {
    signal: { type: 'string', description: 'The signal id, as in its webhook-id header' },
    type: { enum: [...SIGNAL_TYPES] },
    published: str,
    globalId: { type: 'string', description: 'The consignment it is about; reading it still needs a data-sharing policy' },
    state: { enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    lastStatus: nullable({ type: 'integer' }),
    lastError: nullable(str),
    lastAttempt: nullable(str),
    nextAttempt: nullable(str),
    completed: nullable(str),
  },
};

export const signalOperations: ApiOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'listReceivedSignals',
    tag: 'Signals',
    authenticated: true,
    summary: "The signals sent to the caller's organisation, newest first, and how their delivery went",
    parameters: [
      ...pagingParameters(),
      { name: 'type', in: 'query', description: 'Only signals of this type', schema: { enum: [...SIGNAL_TYPES] } },
      {
        name: 'since',
        in: 'query',
        description: 'Only signals published at or after this ISO 8601 date-time',
        schema: { type: 'string', format: 'date-time' },
      },
      {
        name: 'until',
        in: 'query',
        description: 'Only signals published before this ISO 8601 date-time',
        schema: { type: 'string', format: 'date-time' },
      },
    ],
    responses: {
      200: json('Signals, newest first', { type: 'array', items: RECEIVED_SIGNAL }, LINK_NEXT),
      400: error('A filter or cursor that is not valid'),
    },
  },
  {
    method: 'post',
    path: `${PATH}/{id}/redeliver`,
    operationId: 'redeliverSignal',
    tag: 'Signals',
    authenticated: true,
    summary: 'Queue a signal the caller was sent for delivery again to its registered endpoint (same id and body)',
    parameters: [pathId('id', 'The signal id (urn:uuid:… or the bare uuid)')],
    responses: {
      202: json('Queued for delivery', { type: 'object', properties: { signal: str, receiver: str, state: { enum: ['pending'] } } }),
      404: error("No such signal was sent to the caller's organisation"),
      409: error('The signal is still queued for the caller (being delivered or retried)'),
      429: error('The organisation asked for more redeliveries than its budget (Retry-After says when to ask again)'),
    },
  },
];
