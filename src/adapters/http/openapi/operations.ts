import type { ApiOperation } from '../api-operation.js';
import { loginOperations } from '../routes/login.js';
import { sessionOperations } from '../routes/session.js';
import { organisationUserOperations } from '../routes/organisation-users.js';
import { organisationClientOperations } from '../routes/organisation-clients.js';
import { tokenOperations } from '../routes/token.js';
import { oauthMetadataOperations } from '../routes/oauth-metadata.js';
import { inboxOperations } from '../routes/inbox.js';
import { validateOperations } from '../routes/validate.js';
import { activityLogOperations } from '../routes/activity-logs.js';
import { consignmentOperations } from '../routes/consignments.js';
import { documentOperations } from '../routes/documents.js';
import { deliveryOperations } from '../routes/deliveries.js';
import { signalOperations } from '../routes/signals.js';
import { changeOperations } from '../routes/changes.js';
import { notificationOperations } from '../routes/notifications.js';
import { policyOperations } from '../routes/policies.js';
import { sparqlOperations } from '../routes/sparql-operations.js';
import { referenceOperations } from '../routes/reference.js';
import { contextOperations } from '../routes/contexts.js';
import { probeOperations } from '../../ops/probes.js';
import { metricsOperations } from '../../ops/metrics-route.js';

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
