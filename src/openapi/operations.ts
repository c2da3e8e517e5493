import type { ApiOperation } from '../http/api-operation.js';
import { loginOperations } from '../http/routes/login.js';
import { sessionOperations } from '../http/routes/session.js';
import { organisationUserOperations } from '../http/routes/organisation-users.js';
import { organisationClientOperations } from '../http/routes/organisation-clients.js';
import { tokenOperations } from '../http/routes/token.js';
import { oauthMetadataOperations } from '../http/routes/oauth-metadata.js';
import { inboxOperations } from '../http/routes/inbox.js';
import { validateOperations } from '../http/routes/validate.js';
import { activityLogOperations } from '../http/routes/activity-logs.js';
import { consignmentOperations } from '../http/routes/consignments.js';
import { documentOperations } from '../http/routes/documents.js';
import { deliveryOperations } from '../http/routes/deliveries.js';
import { signalOperations } from '../http/routes/signals.js';
import { changeOperations } from '../http/routes/changes.js';
import { notificationOperations } from '../http/routes/notifications.js';
import { policyOperations } from '../http/routes/policies.js';
import { sparqlOperations } from '../http/routes/sparql-operations.js';
import { referenceOperations } from '../http/routes/reference.js';
import { contextOperations } from '../http/routes/contexts.js';
import { probeOperations } from '../ops/probes.js';
import { metricsOperations } from '../ops/metrics-route.js';

/** Every API operation the node serves: a route module that registers a route lists it here too. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...loginOperations,
  ...sessionOperations,
  ...tokenOperations,
  ...oauthMetadataOperations,
  ...inboxOperations,
  ...validateOperations,
  ...activityLogOperations,
  ...consignmentOperations,
  ...documentOperations,
  ...deliveryOperations,
  ...signalOperations,
  ...changeOperations,
  ...notificationOperations,
  ...policyOperations,
  ...organisationUserOperations,
  ...organisationClientOperations,
  ...sparqlOperations,
  ...referenceOperations,
  ...contextOperations,
  ...probeOperations,
  ...metricsOperations,
];
