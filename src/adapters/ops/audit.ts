import type { Request, Response } from 'express';
import type { Logger } from '../../core/logger.js';
import { isObject } from '../../core/util/json.js';

const LOGIN = '/authentication/login';
const POLICIES = '/supply-chain/data-space/policies';

/**
 * Audit lines for what a security review asks after: logins (who, whether it worked; never the
 * password), data-sharing policies registered or withdrawn, and every refused request (401/403).
 * Read from the finished exchange, so the routes stay free of logging.
 */
export function audit(logger: Logger, req: Request, res: Response, route: string, requestId: string, error: unknown): void {
  const status = res.statusCode;
  const org = req.principal?.org.id;
  const reason = error instanceof Error ? error.name : undefined;
  if (req.method === 'POST' && route === LOGIN) {
    const body: unknown = req.body;
    const email = isObject(body) && typeof body.email === 'string' ? body.email.slice(0, 254) : undefined;
    if (status === 200) logger.info('audit: login succeeded', { audit: 'login', outcome: 'success', email, reqId: requestId });
    else logger.warn('audit: login refused', { audit: 'login', outcome: 'failure', email, status, reason, reqId: requestId });
    return;
  }
  if (status === 401 || status === 403) {
    logger.warn('audit: access refused', { audit: 'refused', method: req.method, route, status, reason, org, reqId: requestId });
    return;
  }
  if (req.method === 'POST' && route === POLICIES && status === 201) {
    logger.info('audit: policy registered', {
      audit: 'policy',
      action: 'register',
      org,
      policy: res.getHeader('location'),
      reqId: requestId,
    });
  } else if (req.method === 'DELETE' && route === `${POLICIES}/:id` && status === 204) {
    logger.info('audit: policy withdrawn', { audit: 'policy', action: 'withdraw', org, policy: req.params.id, reqId: requestId });
  }
}
