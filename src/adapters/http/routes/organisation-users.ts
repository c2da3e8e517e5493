import { Router, type Request } from 'express';
import type { Principal } from '../../../core/auth/principal.js';
import type { UserAccount, Users } from '../../../core/accounts/users.js';
import { MalformedAccountRequest, MIN_PASSWORD, parseNewUser, parseUserChange } from '../../../core/accounts/user-request.js';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../../core/errors.js';
import { refuseUnknown } from '../list-filters.js';
import { principalOf } from '../authenticate.js';
import { error, json, pathId, type ApiOperation, type Schema } from '../api-operation.js';

export const ORGANISATION_USERS_PATH = '/supply-chain/data-space/organisation/users';

/** Only an organisation admin (a user the seed or another admin made one) manages its organisation's accounts. */
export function organisationAdmin(req: Request): Principal {
  const principal = principalOf(req);
  if (!principal.admin) throw new Forbidden('Only an administrator of your organisation manages its users and clients');
  return principal;
}

/** The API's view of a user: never its password hash or token epoch. */
export const userJson = (user: UserAccount, baseUrl: string) => ({
  email: user.email,
  admin: user.admin,
  disabled: user.disabled,
  managedBy: user.fromApi ? 'organisation' : 'seed',
  href: `${baseUrl}${ORGANISATION_USERS_PATH}/${encodeURIComponent(user.email)}`,
});

function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof MalformedAccountRequest) throw new BadRequest(error.message);
    throw error;
  }
}

/**
 * An organisation admin's own users: list, add, change (password, admin, disabled), remove. A user of
 * another organisation is answered as missing. An admin cannot disable, demote or remove itself, so an
 * organisation is never left without the admin who acted.
 */
export function organisationUserRoutes({ users, baseUrl }: { users: Users; baseUrl: string }): Router {
  const router = Router();
  const notFound = (email: string) => new NotFound(`No user ${email} in your organisation`);
  const emailParam = (req: Request) => String(req.params.email).toLowerCase();

  router.get(ORGANISATION_USERS_PATH, (req, res) => {
    const admin = organisationAdmin(req);
    refuseUnknown(req, []);
    res.json(users.ofOrganisation(admin.org.id).map((u) => userJson(u, baseUrl)));
  });

  router.post(ORGANISATION_USERS_PATH, async (req, res) => {
    const admin = organisationAdmin(req);
    const fields = parsed(() => parseNewUser(req.body));
    const user = await users.create(admin.org.id, fields, admin.email);
    if (!user) throw new Conflict(`${fields.email} is already registered`);
    const body = userJson(user, baseUrl);
    res.status(201).location(body.href).json(body);
  });

  router.get(`${ORGANISATION_USERS_PATH}/:email`, (req, res) => {
    const admin = organisationAdmin(req);
    const user = users.get(emailParam(req));
    if (!user || user.organisation !== admin.org.id) throw notFound(emailParam(req));
    res.json(userJson(user, baseUrl));
  });

  router.patch(`${ORGANISATION_USERS_PATH}/:email`, async (req, res) => {
    const admin = organisationAdmin(req);
    const change = parsed(() => parseUserChange(req.body));
    const email = emailParam(req);
    if (email === admin.email && (change.disabled === true || change.admin === false)) {
      throw new Conflict('You cannot disable yourself or withdraw your own admin role: ask another admin of your organisation');
    }
    const user = await users.update(admin.org.id, email, change, admin.email);
    if (!user) throw notFound(email);
    res.json(userJson(user, baseUrl));
  });

  router.delete(`${ORGANISATION_USERS_PATH}/:email`, async (req, res) => {
    const admin = organisationAdmin(req);
    const email = emailParam(req);
    if (email === admin.email) throw new Conflict('You cannot remove yourself: ask another admin of your organisation');
    if (!(await users.remove(admin.org.id, email, admin.email))) throw notFound(email);
    res.status(204).end();
  });
  return router;
}

const USER: Schema = {
  type: 'object',
  required: ['email', 'admin', 'disabled', 'managedBy', 'href'],
  properties: {
    email: { type: 'string' },
    admin: { type: 'boolean' },
    disabled: { type: 'boolean' },
    managedBy: {
      enum: ['seed', 'organisation'],
      description: "`seed`: the operator's seed lists the user and applies its entry again when the entry changes",
    },
    href: { type: 'string', format: 'uri' },
  },
};
const NEW_USER: Schema = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', format: 'email' },
    password: { type: 'string', minLength: MIN_PASSWORD, maxLength: 400 },
    admin: { type: 'boolean' },
  },
};
const USER_CHANGE: Schema = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: {
    password: { type: 'string', minLength: MIN_PASSWORD, maxLength: 400, description: 'A new password: ends every token of the user' },
    admin: { type: 'boolean' },
    disabled: { type: 'boolean', description: 'true ends every token of the user and refuses its logins' },
  },
};
const TAG = 'Organisation accounts';
const ITEM = `${ORGANISATION_USERS_PATH}/{email}`;
const email = pathId('email', "The user's email");
const common = { 401: error('No valid token'), 403: error('The caller is not an administrator of its organisation') };

export const organisationUserOperations: ApiOperation[] = [
  {
    method: 'get',
    path: ORGANISATION_USERS_PATH,
    operationId: 'listOrganisationUsers',
    tag: TAG,
    authenticated: true,
    summary: "The users of the caller's organisation (admins only)",
    responses: {
      200: json('The users', { type: 'array', items: USER }),
      400: error('A query parameter the list does not take'),
      ...common,
    },
  },
  {
    method: 'post',
    path: ORGANISATION_USERS_PATH,
    operationId: 'addOrganisationUser',
    tag: TAG,
    authenticated: true,
    summary: "Adds a user to the caller's organisation (admins only)",
    requestBody: { required: true, content: { 'application/json': NEW_USER } },
    responses: { 201: json('Added', USER), 400: error('Malformed user'), ...common, 409: error('The email is already registered') },
  },
  {
    method: 'get',
    path: ITEM,
    operationId: 'getOrganisationUser',
    tag: TAG,
    authenticated: true,
    parameters: [email],
    summary: "One user of the caller's organisation (admins only)",
    responses: { 200: json('The user', USER), ...common, 404: error("No such user in the caller's organisation") },
  },
  {
    method: 'patch',
    path: ITEM,
    operationId: 'changeOrganisationUser',
    tag: TAG,
    authenticated: true,
    parameters: [email],
    summary: "Resets a user's password, disables or enables it, grants or withdraws admin (admins only)",
    requestBody: { required: true, content: { 'application/json': USER_CHANGE } },
    responses: {
      200: json('Changed', USER),
      400: error('Malformed change'),
      ...common,
      404: error("No such user in the caller's organisation"),
      409: error('An admin disabling or demoting itself'),
    },
  },
  {
    method: 'delete',
    path: ITEM,
    operationId: 'removeOrganisationUser',
    tag: TAG,
    authenticated: true,
    parameters: [email],
    summary: "Removes a user of the caller's organisation and ends its tokens (admins only)",
    responses: {
      204: { description: 'Removed' },
      ...common,
      404: error("No such user in the caller's organisation"),
      409: error('An admin removing itself'),
    },
  },
];
