import type { Schema } from '../api-operation.js';
import { COUNTRY_PATTERN, LOCODE_PATTERN } from '../../../core/registry/seed.js';
import { dateTime, str } from './schema-parts.js';

/** The components of signal deliveries, notification endpoints, SPARQL answers and data-sharing policies (schemas.ts holds the rest). */
export const SIGNAL_POLICY_AND_SPARQL_SCHEMAS: Record<string, Schema> = {
  Delivery: {
    type: 'object',
    required: ['signal', 'type', 'receiver', 'state', 'attempts'],
    properties: {
      signal: str,
      type: str,
      published: str,
      receiver: str,
      receiverName: str,
      state: { enum: ['pending', 'delivered', 'failed'] },
      attempts: { type: 'integer' },
      lastStatus: { type: 'integer' },
      lastError: str,
      lastAttempt: str,
      nextAttempt: str,
      completed: str,
    },
  },
  NotificationEndpoint: {
    type: 'object',
    required: ['hasSecret'],
    properties: {
      url: { type: 'string', format: 'uri', description: 'Left out when none is registered' },
      hasSecret: { type: 'boolean' },
      secret: { type: 'string', description: 'Only when the node generated it: shown this once' },
    },
  },
  NotificationEndpointRequest: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      secret: { type: 'string', pattern: '^whsec_', description: 'Standard Webhooks secret; generated when omitted and none is kept' },
    },
  },
  JsonLd: { type: ['object', 'array'], description: 'A JSON-LD document (its contexts are served under /contexts/)' },
  SparqlResults: {
    type: 'object',
    required: ['head'],
    description: 'SPARQL 1.1 Query Results JSON: `results` for SELECT, `boolean` for ASK',
    oneOf: [{ required: ['results'] }, { required: ['boolean'] }],
    properties: {
      head: { type: 'object', properties: { vars: { type: 'array', items: str }, link: { type: 'array', items: str } } },
      boolean: { type: 'boolean' },
      results: {
        type: 'object',
        required: ['bindings'],
        properties: {
          bindings: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['type', 'value'],
                properties: { type: { enum: ['uri', 'literal', 'bnode'] }, value: str, 'xml:lang': str, datatype: str },
              },
            },
          },
        },
      },
    },
  },
  PolicyRequest: {
    type: 'object',
    required: ['role'],
    additionalProperties: false,
    properties: {
      role: { enum: ['borderAgency', 'locationOperator'] },
      countries: {
        type: 'array',
        items: { type: 'string', pattern: COUNTRY_PATTERN.source },
        description: 'Border agencies of these countries (role borderAgency)',
      },
      locations: {
        type: 'array',
        items: { type: 'string', pattern: LOCODE_PATTERN.source },
        description: 'Operators of these UN/LOCODEs (role locationOperator)',
      },
      consignments: { type: 'array', minItems: 1, items: str, description: 'Only these consignments (globalIds); omit to cover all' },
    },
  },
  Policy: {
    type: 'object',
    required: ['id', 'owner', 'role', 'countries', 'locations', 'consignments', 'created', 'href'],
    properties: {
      id: str,
      owner: str,
      role: str,
      countries: { type: 'array', items: str },
      locations: { type: 'array', items: str },
      consignments: { type: 'array', items: str },
      created: dateTime,
      href: { type: 'string', format: 'uri' },
    },
  },
};
