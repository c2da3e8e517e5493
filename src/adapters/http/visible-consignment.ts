import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { Principal } from '../../core/auth/principal.js';
import { NotFound, type HttpError } from '../../core/errors.js';
import type { Visibility } from '../../core/policy/visibility.js';
import type { VisibleConsignment } from '../../core/policy/visible-records.js';
import { principalOf } from './authenticate.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The consignment the path's `:id` names, as the caller may read it (set by the read policy step below). */
    visible?: VisibleConsignment;
  }
}

/** The 404 of a consignment the caller may not read: the same words as for one that does not exist. */
export const notVisible = (id: string): HttpError => new NotFound(`No consignment ${id} is visible to your organisation`);

/** Which readable consignments a route answers for, and how it refuses the others. */
export interface ReadPolicy {
  /** Answers only for some readable consignments (the publisher's own); the others get `refuse`. */
  admits?: (visible: VisibleConsignment, principal: Principal) => boolean;
  refuse?: (id: string) => HttpError;
}

/** Every reader may read what the coverage rule lets it: the consignment routes' policy. */
export const READABLE: ReadPolicy = {};

/** The publisher only (delivery state): a reader under a policy gets the 404 of a missing id. */
export const PUBLISHER_ONLY: ReadPolicy = {
  admits: (visible, principal) => visible.owner === principal.org.id,
  refuse: (id) => new NotFound(`No consignment ${id} of your organisation`),
};

function resolve(visibility: Pick<Visibility, 'find'>, policy: ReadPolicy, req: Request, id: string, next: NextFunction): void {
  const principal = principalOf(req);
  visibility.find(principal, id).then((visible) => {
    if (!visible || (policy.admits && !policy.admits(visible, principal))) {
      next((policy.refuse ?? notVisible)(id));
      return;
    }
    req.visible = visible;
    next();
  }, next);
}

/**
 * The read policy as one step of the pipeline, for a router mounted after authentication: every route
 * of `router` with an `:id` in its path is answered only once `:id` names a consignment the caller may
 * read (Express runs param steps before the route's handler), so a new route is covered by being on
 * the router. The handler takes the consignment from `visibleOf(req)`.
 */
export function guardConsignmentIds(router: Router, visibility: Pick<Visibility, 'find'>, policy: ReadPolicy = READABLE): void {
  router.param('id', (req: Request, _res: Response, next: NextFunction, id: string) => resolve(visibility, policy, req, id, next));
}

/** The same step for one route, placed after its own authentication (the console's pages). */
export function readableConsignment(visibility: Pick<Visibility, 'find'>, policy: ReadPolicy = READABLE): RequestHandler {
  return (req, _res, next) => resolve(visibility, policy, req, String(req.params.id), next);
}

/** The consignment the read policy step resolved; a route without that step is a mistake in the code. */
export function visibleOf(req: Request): VisibleConsignment {
  if (!req.visible) throw new Error(`${req.method} ${req.path} reads a consignment without the read policy step`);
  return req.visible;
}
