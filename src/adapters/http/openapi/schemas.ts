import type { Schema } from '../api-operation.js';
import { ERROR_NAMES, TASK_ERROR_NAMES } from '../../../core/error-names.js';

import { dateTime, nullable, str } from './schema-parts.js';
import { SIGNAL_POLICY_AND_SPARQL_SCHEMAS } from './schemas-signals-policies.js';

const code: Schema = {
  type: 'object',
  required: ['raw', 'code'],
  properties: { raw: str, code: str, label: { type: 'string', description: 'Left out when the code list does not hold the code' } },
};

/**
 * The shapes the read views and routes answer with (spec section 2), as JSON Schema components. The
 * payloads the inbox takes are checked by SHACL (shapes/*.ttl); the schema here only says what the
 * envelope must carry, and the reference links the shapes for the rest.
 */
export const COMPONENT_SCHEMAS: Record<string, Schema> = {
  Error: {
    type: 'object',
    required: ['name', 'message'],
    description:
      `Every error body. Names and their statuses:\n\n| Status | name | When |\n|---|---|---|\n${ERROR_NAMES.map((e) => `| ${e.status} | ${e.name} | ${e.when} |`).join('\n')}\n\n` +
      `Processing failures answer 201 with the activity-log entry, status "failed" and tasks[].error.name one of: ${TASK_ERROR_NAMES.map((e) => e.name).join(', ')}.`,
    properties: {
      name: { type: 'string', enum: [...new Set(ERROR_NAMES.map((e) => e.name))] },
      message: str,
      properties: { type: 'object', description: 'Details; present on GeneralError (422), e.g. the SHACL report' },
    },
  },
  Login: {
    type: 'object',
    required: ['email', 'password'],
    additionalProperties: true,
    properties: { email: { type: 'string', minLength: 1 }, password: { type: 'string', minLength: 1 } },
  },
  LoginAnswer: {
    type: 'object',
    required: ['expiry'],
    properties: { expiry: { type: 'number', description: 'When the token expires, milliseconds since the Unix epoch' } },
  },
  Activity: {
    type: 'object',
    required: ['@context', 'type', 'actor', 'object'],
    description:
      'An ActivityStreams activity (spec 2.1). The object is a UN/CEFACT D23B Consignment (Create, Update), SupplyChainEvent or Document (Add), validated by the SHACL shapes in shapes/.',
    properties: {
      '@context': { type: 'array', items: str, examples: [['https://www.w3.org/ns/activitystreams']] },
      type: { enum: ['Create', 'Update', 'Add'] },
      actor: {
        type: 'object',
        required: ['@context', 'type', 'registeredId'],
        properties: {
          '@context': str,
          type: { const: 'TradeParty' },
          registeredId: {
            type: 'object',
            required: ['@type', '@value'],
            properties: { '@type': str, '@value': { type: 'string', pattern: '^did:web:' } },
          },
        },
      },
      object: {
        type: 'object',
        required: ['@context'],
        properties: { '@context': str, type: { enum: ['Consignment', 'SupplyChainEvent', 'Document'] } },
      },
      target: {
        type: 'object',
        required: ['@context', 'type', 'globalId', 'identifier'],
        description: 'Required for Add',
        properties: { '@context': str, type: { const: 'Consignment' }, globalId: str, identifier: str },
      },
    },
  },
  ActivityLogEntry: {
    type: 'object',
    required: ['id', 'status', 'generator', 'dateCreated', 'tasks'],
    properties: {
      id: str,
      status: { enum: ['completed', 'failed'] },
      generator: str,
      dateCreated: dateTime,
      tasks: {
        type: 'array',
        items: {
          type: 'object',
          required: ['taskId', 'dataspaceAppId', 'status'],
          properties: {
            taskId: str,
            dataspaceAppId: str,
            result: { type: 'number' },
            startDate: dateTime,
            endDate: dateTime,
            status: { enum: ['completed', 'failed'] },
            error: {
              type: 'object',
              required: ['name', 'message'],
              properties: { name: { enum: TASK_ERROR_NAMES.map((e) => e.name) }, message: str },
            },
          },
        },
      },
    },
  },
  ValidationAnswer: {
    type: 'object',
    required: ['conforms', 'results'],
    properties: {
      conforms: { type: 'boolean' },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['focusNode', 'message', 'severity'],
          properties: {
            focusNode: str,
            path: nullable(str),
            message: str,
            severity: str,
            sourceShape: nullable(str),
            value: nullable(str),
          },
        },
      },
    },
  },
  ConsignmentListItem: {
    type: 'object',
    required: ['id', 'globalId', 'identifier', 'owner', 'href'],
    properties: {
      id: { type: 'string', description: 'As in the read view: the root id sent beside the globalId, else the globalId' },
      globalId: str,
      identifier: str,
      owner: str,
      status: str,
      created: str,
      updated: str,
      href: { type: 'string', format: 'uri' },
    },
  },
  DocumentAttachment: {
    type: 'object',
    required: ['id', 'documentId', 'documentRevision', 'href', 'history'],
    properties: {
      id: str,
      documentId: str,
      documentCode: str,
      documentType: str,
      documentRevision: { type: 'integer', minimum: 1 },
      metadata: {
        type: 'object',
        description: 'Each field left out when unknown (a file never fetched has no blobSize)',
        properties: { encodingFormat: str, blobSize: { type: 'number' }, fileExtension: str },
      },
      href: { type: 'string', format: 'uri' },
      history: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'documentRevision', 'href'],
          properties: { id: str, documentRevision: { type: 'integer' }, href: str },
        },
      },
      consignmentId: str,
      publisher: str,
      published: str,
      document: { type: 'object' },
    },
  },
  SystemEvent: {
    type: 'object',
    required: ['id', 'type', 'typeCode', 'date'],
    properties: {
      '@context': str,
      id: str,
      type: { const: 'SystemEvent' },
      typeCode: { type: 'string', examples: ['CREATE'] },
      source: { type: 'object' },
      object: { type: 'object' },
      target: { type: 'object' },
      date: str,
    },
  },
  ConsignmentView: {
    type: 'object',
    required: ['id', 'created', 'updated', 'includedConsignments', 'documents', 'events', 'systemEvents'],
    description: "The read view (spec 2.9): the consignment's own fields as sent, plus the joined lists below.",
    properties: {
      id: { type: 'string', description: 'The root id sent beside the globalId (such as urn:ucr:…), else the globalId' },
      globalId: str,
      identifier: str,
      owner: str,
      status: str,
      created: str,
      updated: str,
      includedConsignments: { type: 'array', items: { type: 'object' } },
      documents: { type: 'array', items: { $ref: '#/components/schemas/DocumentAttachment' } },
      events: { type: 'array', items: { type: 'object', properties: { id: str, typeCode: str, publisher: str, published: str } } },
      systemEvents: { type: 'array', items: { $ref: '#/components/schemas/SystemEvent' } },
      resolvedTransportMode: { ...code, description: 'Left out when no transport movement names a mode' },
      resolvedTransportEquipment: {
        type: 'array',
        items: {
          type: 'object',
          required: ['transportMeansTypes'],
          properties: {
            identifier: { type: 'string', description: 'Left out for equipment without one' },
            transportMeansTypes: { type: 'array', items: code },
          },
        },
      },
    },
  },
  ...SIGNAL_POLICY_AND_SPARQL_SCHEMAS,
};
