import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Users } from '../../../../core/accounts/users.js';
import { MalformedAccountRequest, parseNewUser, parseUserChange } from '../../../../core/accounts/user-request.js';
import type { UserChange } from '../../../../core/accounts/users.js';
import { BadRequest, Conflict, NotFound } from '../../../../core/errors.js';
import { organisationAdmin } from '../../routes/organisation-users.js';
import type { OwnOrigins } from '../../own-origins.js';
import type { Html } from '../html.js';
import { checkCsrf } from './csrf.js';
import type { PageFrame } from './layout.js';
import { usersPage } from './users-page.js';

export interface ConsoleUserDeps {
  users: Users;
  /** Which Origin a form may come from (the page's own address; see OwnOrigins). */
  origins: OwnOrigins;
  auth: RequestHandler;
  form: RequestHandler;
  frame: (req: Request, title: string, notice?: PageFrame['notice']) => PageFrame;
  send: (res: Response, page: Html, status?: number) => void;
}

const TITLE = 'Users of my organisation';
const NOTICES: Record<string, string> = {
  added: 'User added.',
  disable: 'User disabled: their sessions ended.',
  enable: 'User enabled.',
  password: 'Password reset: their sessions ended.',
  remove: 'User removed.',
};
const CHANGES: Record<string, UserChange | 'password'> = { disable: { disabled: true }, enable: { disabled: false }, password: 'password' };

/**
 * The console's page for organisation admins: the same Users calls and checks as the API's
 * /supply-chain/data-space/organisation/users, from forms with the session's anti-forgery token.
 */
export function consoleUserRoutes(deps: ConsoleUserDeps): Router {
  const router = Router();
  const body = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
  const notice = (req: Request): PageFrame['notice'] => {
    const done = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    return done ? { kind: 'ok', text: done } : undefined;
  };

  router.get('/console/users', deps.auth, (req, res) => {
    const admin = organisationAdmin(req);
    deps.send(res, usersPage(deps.frame(req, TITLE, notice(req)), deps.users.ofOrganisation(admin.org.id)));
  });

  router.post('/console/users', deps.auth, deps.form, async (req, res) => {
    checkCsrf(req, deps.origins);
    const admin = organisationAdmin(req);
    const filled = body(req);
    const problem = (text: string, status: number) =>
      deps.send(
        res,
        usersPage(deps.frame(req, TITLE, { kind: 'error', text }), deps.users.ofOrganisation(admin.org.id), {
          email: typeof filled.email === 'string' ? filled.email : undefined,
          admin: filled.admin === 'true',
        }),
        status,
      );
    let fields;
    try {
      fields = parseNewUser({ email: filled.email, password: filled.password, admin: filled.admin === 'true' });
    } catch (error) {
      if (!(error instanceof MalformedAccountRequest)) throw error;
      problem(error.message, 400);
      return;
    }
    if (!(await deps.users.create(admin.org.id, fields, admin.email))) {
      problem(`${fields.email} is already registered`, 409);
      return;
    }
    res.redirect(303, '/console/users?done=added');
  });

  router.post('/console/users/:email/:what', deps.auth, deps.form, async (req, res) => {
    checkCsrf(req, deps.origins);
    const admin = organisationAdmin(req);
    const email = String(req.params.email).toLowerCase();
    const what = String(req.params.what);
    if (what !== 'remove' && CHANGES[what] === undefined) throw new NotFound(`No action ${what}`);
    if (email === admin.email && what !== 'password')
      throw new Conflict('You cannot disable or remove yourself: ask another admin of your organisation');
    let done: boolean;
    if (what === 'remove') {
      done = await deps.users.remove(admin.org.id, email, admin.email);
    } else {
      const planned = CHANGES[what]!;
      let change: UserChange;
      try {
        change = planned === 'password' ? parseUserChange({ password: body(req).password }) : planned;
      } catch (error) {
        if (error instanceof MalformedAccountRequest) throw new BadRequest(error.message);
        throw error;
      }
      done = (await deps.users.update(admin.org.id, email, change, admin.email)) !== undefined;
    }
    if (!done) throw new NotFound(`No user ${email} in your organisation`);
    res.redirect(303, `/console/users?done=${what}`);
  });
  return router;
}
