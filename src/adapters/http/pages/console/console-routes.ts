import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Visibility } from '../../../../core/policy/visibility.js';
import type { ConsignmentView } from '../../../../core/views/consignment-view.js';
import type { Outbox } from '../../../../core/notify/outbox.js';
import type { ReceivedDeliveries } from '../../../../core/notify/received-deliveries.js';
import type { NotificationEndpoints } from '../../../../core/notify/endpoints.js';
import type { Policies } from '../../../../core/policy/policies.js';
import { MalformedPolicy, parsePolicyRequest } from '../../../../core/policy/policies.js';
import type { Registry } from '../../../../core/registry/registry.js';
import type { Sessions } from '../../../../core/accounts/sessions.js';
import type { Users } from '../../../../core/accounts/users.js';
import { consoleUserRoutes } from './users-routes.js';
import { principalOf } from '../../authenticate.js';
import { readableConsignment, visibleOf } from '../../visible-consignment.js';
import { clearTokenCookie } from '../../token-cookie.js';
import { BadRequest, Conflict, Forbidden, HttpError, NotFound, TooManyRequests } from '../../../../core/errors.js';
import { queryString, readLimit } from '../../paging.js';
import { decodeListCursor, encodeListCursor, readFilter, type FilterName } from '../../list-filters.js';
import { isFiltered } from '../../../../core/policy/list-filter.js';
import { PAGE_SECURITY_HEADERS, type Html } from '../html.js';
import { checkCsrf, csrfToken } from './csrf.js';
import type { OwnOrigins } from '../../own-origins.js';
import { layout, type PageFrame } from './layout.js';
import { LOGIN_PATH, pageAuthenticate, safeNext } from './page-auth.js';
import { loginPage } from './login-page.js';
import { consignmentsPage } from './consignments-page.js';
import { consignmentPage } from './consignment-page.js';
import { policiesPage, policyRequest, type GrantForm } from './policies-page.js';
import { deliveriesPage } from './deliveries-page.js';
import { html } from '../html.js';
import { changesPage } from './changes-page.js';
import type { ChangeLog } from '../../../../core/changes/change-log.js';
import { decodeFeedCursor, encodeFeedCursor, START } from '../../../../core/changes/change-cursor.js';
import type { Redelivery } from '../../../../core/notify/redelivery.js';

export interface ConsoleDeps {
  authenticate: RequestHandler;
  visibility: Visibility;
  consignmentView: ConsignmentView;
  outbox: Outbox;
  received: ReceivedDeliveries;
  endpoints: NotificationEndpoints;
  policies: Policies;
  registry: Registry;
  sessions: Sessions;
  users: Users;
  baseUrl: string;
  /** Which Origin a form may come from (the page's own address; see OwnOrigins). */
  origins: OwnOrigins;
  secureCookie: boolean;
  pageLimitDefault: number;
  pageLimitMax: number;
  /** The change feed, for the changes page (absent: no such page). */
  changes?: ChangeLog;
  /** Redelivery of a received signal, for the deliveries page's button (absent: no button). */
  redelivery?: Redelivery;
}

export const CONSOLE_PATH = '/console';
const LIST_FILTERS: readonly FilterName[] = ['updatedSince', 'status', 'location', 'scope'];
const DELIVERIES_PAGE = 50;
const NOTICES: Record<string, string> = {
  granted: 'Policy granted.',
  withdrawn: 'Policy withdrawn.',
  redelivered: 'Signal queued for delivery again.',
};

function send(res: Response, page: Html, status = 200): void {
  res.status(status).set(PAGE_SECURITY_HEADERS).type('html').send(page.text);
}

/**
 * The participant console: plain server-rendered pages over the same collaborators as the API
 * (Visibility, ConsignmentView, Policies, Outbox), so a page shows exactly what the API would answer
 * to the same session, and changes go through the same checks. Forms are guarded by SameSite=Strict
 * cookies, an Origin check and a per-session anti-forgery token.
 */
export function consoleRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const auth = pageAuthenticate(deps.authenticate);
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });
  const names = (org: string): string => deps.registry.organisation(org)?.name ?? org;
  const frame = (req: Request, title: string, notice?: PageFrame['notice']): PageFrame => ({
    title,
    principal: principalOf(req),
    csrf: csrfToken(req),
    notice,
  });
  const done = (req: Request): PageFrame['notice'] => {
    const key = queryString(req, 'done');
    return key !== undefined && NOTICES[key] ? { kind: 'ok', text: NOTICES[key] } : undefined;
  };

  router.get(CONSOLE_PATH, (_req, res) => res.redirect(303, `${CONSOLE_PATH}/consignments`));

  router.get(LOGIN_PATH, (req, res) => send(res, loginPage(safeNext(req.query.next))));

  // Ends the token itself, as the API's /authentication/logout does, not only the cookie.
  router.post(`${CONSOLE_PATH}/logout`, auth, form, async (req, res) => {
    checkCsrf(req, deps.origins);
    await deps.sessions.logout(principalOf(req));
    clearTokenCookie(res, deps.secureCookie);
    res.redirect(303, LOGIN_PATH);
  });

  router.get(`${CONSOLE_PATH}/consignments`, auth, async (req, res) => {
    const principal = principalOf(req);
    const search = queryString(req, 'q')?.trim();
    if (search) {
      const found = await deps.visibility.find(principal, search);
      send(res, consignmentsPage(frame(req, 'Consignments'), { items: found ? [found] : [], search }));
      return;
    }
    const filter = readFilter(req, LIST_FILTERS, true);
    // The API's list (GET /consignments with the same parameters), its bounded walk and cursors.
    const entered = Object.fromEntries(LIST_FILTERS.map((name) => [name, queryString(req, name)]));
    const limit = readLimit(req, deps.pageLimitDefault, deps.pageLimitMax);
    const page = await deps.visibility.filteredList(principal, filter, decodeListCursor(filter, queryString(req, 'cursor')), {
      items: limit,
      examine: 20_000,
      slice: 1000,
    });
    send(
      res,
      consignmentsPage(frame(req, 'Consignments'), {
        items: page.items,
        next: page.next && encodeListCursor(filter, page.next),
        filter: isFiltered(filter) ? entered : undefined,
      }),
    );
  });

  router.get(`${CONSOLE_PATH}/consignments/:id`, auth, readableConsignment(deps.visibility), async (req, res) => {
    const principal = principalOf(req);
    const visible = visibleOf(req);
    const view = await deps.consignmentView.render(principal, visible, 'all');
    // Delivery state is the publisher's business only, as on GET …/deliveries.
    const deliveries = visible.owner === principal.org.id ? await deps.outbox.ofConsignment(visible.consignment) : undefined;
    send(res, consignmentPage(frame(req, `Consignment ${visible.identifier}`), view, deliveries, names));
  });

  const forwarder = (req: Request) => {
    const principal = principalOf(req);
    if (principal.org.role !== 'freightForwarder') throw new Forbidden('Only freight forwarders register data-sharing policies');
    return principal;
  };

  router.get(`${CONSOLE_PATH}/policies`, auth, async (req, res) => {
    const principal = forwarder(req);
    send(res, policiesPage(frame(req, 'Data-sharing policies', done(req)), await deps.policies.ofOwner(principal.org.id)));
  });

  router.post(`${CONSOLE_PATH}/policies`, auth, form, async (req, res) => {
    checkCsrf(req, deps.origins);
    const principal = forwarder(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
    const filled: GrantForm = {
      role: field('role'),
      countries: field('countries'),
      locations: field('locations'),
      consignments: field('consignments'),
    };
    let fields;
    try {
      fields = parsePolicyRequest(policyRequest(filled));
    } catch (error) {
      if (!(error instanceof MalformedPolicy)) throw error;
      // The form comes back as it was filled, with the API's own message.
      const policies = await deps.policies.ofOwner(principal.org.id);
      send(res, policiesPage(frame(req, 'Data-sharing policies', { kind: 'error', text: error.message }), policies, filled), 400);
      return;
    }
    await deps.policies.register(principal.org.id, fields);
    res.redirect(303, `${CONSOLE_PATH}/policies?done=granted`);
  });

  router.post(`${CONSOLE_PATH}/policies/:id/withdraw`, auth, form, async (req, res) => {
    checkCsrf(req, deps.origins);
    const principal = forwarder(req);
    const id = String(req.params.id);
    if (!(await deps.policies.withdraw(principal.org.id, id))) throw new NotFound(`No policy ${id} of your organisation`);
    res.redirect(303, `${CONSOLE_PATH}/policies?done=withdrawn`);
  });

  router.get(`${CONSOLE_PATH}/deliveries`, auth, async (req, res) => {
    const principal = principalOf(req);
    const beforeText = queryString(req, 'before');
    const before = beforeText === undefined ? undefined : Number(beforeText);
    if (before !== undefined && (!Number.isSafeInteger(before) || before < 0))
      throw new BadRequest('before must be a delivery sequence number');
    const { items, next: older } = await deps.received.page(principal.org.id, {}, DELIVERIES_PAGE, before);
    const endpoint = deps.endpoints.of(principal.org.id)?.url ?? null;
    send(
      res,
      deliveriesPage(
        frame(req, 'Deliveries to my notification endpoint', done(req)),
        endpoint,
        items,
        older,
        deps.redelivery !== undefined,
      ),
    );
  });

  router.use(consoleUserRoutes({ users: deps.users, origins: deps.origins, auth, form, frame, send }));

  const { redelivery, changes } = deps;
  if (redelivery) {
    router.post(`${CONSOLE_PATH}/deliveries/redeliver`, auth, form, async (req, res) => {
      checkCsrf(req, deps.origins);
      const signal = typeof req.body?.signal === 'string' ? req.body.signal : '';
      const outcome = await redelivery.request(principalOf(req).org.id, signal.startsWith('urn:uuid:') ? signal : 'urn:uuid:invalid');
      if (outcome.kind === 'not-sent') throw new NotFound('No such signal was sent to your organisation');
      if (outcome.kind === 'pending') throw new Conflict('That signal is still queued for your endpoint: it is being delivered or retried');
      if (outcome.kind === 'throttled')
        throw new TooManyRequests(
          'Your organisation asked for too many redeliveries; try again later',
          Math.ceil(outcome.retryAfterMs / 1000),
        );
      res.redirect(303, `${CONSOLE_PATH}/deliveries?done=redelivered`);
    });
  }

  if (changes) {
    router.get(`${CONSOLE_PATH}/changes`, auth, async (req, res) => {
      const after = queryString(req, 'after');
      const from = after === undefined ? START : decodeFeedCursor(after);
      if (!from) throw new BadRequest('after is not a cursor this node issued');
      const page = await changes.page(principalOf(req), from, { items: DELIVERIES_PAGE, examine: 20_000, slice: 1000 });
      send(
        res,
        changesPage(
          frame(req, 'Changes in what I may read'),
          page.items,
          encodeFeedCursor(page.next),
          !page.atEnd || page.items.length === DELIVERIES_PAGE,
        ),
      );
    });
  }

  // Problems on a console page are shown as a page, with the API's message and status.
  router.use(CONSOLE_PATH, (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof HttpError) || res.headersSent) {
      next(error);
      return;
    }
    const principal = req.principal;
    const page = layout(
      {
        title: error.status === 404 ? 'Not found' : error.status === 403 ? 'Not allowed' : 'Problem',
        principal,
        csrf: principal ? csrfToken(req) : undefined,
      },
      html`<p class="notice error" role="alert">${error.message}</p><p><a href="/console/consignments">Back to the consignments</a></p>`,
    );
    send(res, page, error.status);
  });

  return router;
}
