import { STATUSES } from '../../core/activities/status.js';
import type { ApiParameter } from './api-operation.js';

/** The list filters (list-filters.ts) as the OpenAPI document describes them. */
export const LIST_FILTER_PARAMETERS: ApiParameter[] = [
  {
    name: 'updatedSince',
    in: 'query',
    description:
      'Only consignments whose record changed (created, updated, an event or document added) at or after this time: a date-time with its offset, or a date (midnight UTC). The list is then in order of the last change, oldest first; a consignment that changes again during a walk shows again further on.',
    schema: { type: 'string', format: 'date-time' },
  },
  { name: 'status', in: 'query', description: 'Only consignments in this status', schema: { enum: [...STATUSES] } },
  {
    name: 'location',
    in: 'query',
    description: 'Only consignments whose route passes this UN/LOCODE (docs/policies.md, route forms); any case',
    schema: { type: 'string', example: 'NLRTM' },
  },
  {
    name: 'scope',
    in: 'query',
    description: "`own`: consignments the caller's organisation published; `shared`: those others share with it; `all`: both",
    schema: { enum: ['own', 'shared', 'all'], default: 'all' },
  },
];

/** The filters that apply to documents: those of the consignment each belongs to (no updatedSince: the change feed lists revisions). */
export const DOCUMENT_FILTER_PARAMETERS: ApiParameter[] = [
  { name: 'status', in: 'query', description: 'Only documents of consignments in this status', schema: { enum: [...STATUSES] } },
  {
    name: 'location',
    in: 'query',
    description: 'Only documents of consignments whose route passes this UN/LOCODE; any case',
    schema: { type: 'string', example: 'NLRTM' },
  },
  {
    name: 'scope',
    in: 'query',
    description:
      "`own`: documents of consignments the caller's organisation published; `shared`: of those others share with it; `all`: both",
    schema: { enum: ['own', 'shared', 'all'], default: 'all' },
  },
];
