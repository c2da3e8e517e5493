/**
 * Every `name` an error body carries (spec 7.4 names three and leaves the rest open), with its HTTP
 * status and when it is answered: one table that the OpenAPI document (the Error schema) and
 * docs/decisions.md list, and that a test holds against every name the source throws.
 *
 * The rule behind the statuses: what the request alone decides is an HTTP status (400 malformed or a
 * required field missing, 401 credentials, 403 the caller's role may not do this, 422 a well-formed
 * payload that breaks a rule, 409 an id reused for another payload); what depends on stored data
 * (the target does not exist or is not the caller's, contradicts stored state, a file cannot be
 * fetched) is a processing failure: 201 with `status: "failed"` and `tasks[].error` (TASK_ERROR_NAMES).
 */
export const ERROR_NAMES: readonly { status: number; name: string; when: string }[] = [
  {
    status: 400,
    name: 'BadRequest',
    when: 'Malformed request: not JSON, not an activity, a required field missing or null (spec 7.1), a malformed parameter or email',
  },
  { status: 401, name: 'UnauthorizedError', when: 'Missing or invalid credentials, or a wrong email or password' },
  {
    status: 403,
    name: 'Forbidden',
    when: "The caller's organisation or role may not make this request (roles, actor, policies of forwarders only, SPARQL Update, a console form without its anti-forgery token)",
  },
  { status: 404, name: 'NotFound', when: 'No such resource, or one the caller may not read (the same answer)' },
  { status: 405, name: 'MethodNotAllowed', when: 'A method no route serves on a path the API has (with Allow)' },
  { status: 406, name: 'NotAcceptable', when: 'No representation matches Accept' },
  {
    status: 408,
    name: 'RequestTimeout',
    when: 'An authenticated body slower than DATASPACE_HTTP_BODY_TIMEOUT_MS; the connection is closed',
  },
  { status: 409, name: 'Conflict', when: 'An activity id already applied, sent again with another payload' },
  { status: 413, name: 'PayloadTooLarge', when: 'A body, array or value count over the limits' },
  { status: 415, name: 'UnsupportedMediaType', when: 'A body that is not JSON (or a SPARQL request of another type)' },
  {
    status: 422,
    name: 'GeneralError',
    when: 'A well-formed payload that breaks a rule: shapes, JSON-LD terms, contexts, dates, codes, repeated item identifiers; `properties` holds the details',
  },
  { status: 422, name: 'ResultTooLarge', when: 'A SPARQL result over the configured size' },
  {
    status: 429,
    name: 'TooManyRequests',
    when: "Login throttle, or an organisation's share of a queue is full (payload readers, SPARQL, redeliveries); `Retry-After` says when to try again",
  },
  { status: 500, name: 'InternalServerError', when: 'The node failed; nothing is told about why' },
  {
    status: 502,
    name: 'BadGateway',
    when: 'A replica that forwards writes to the writer lost the writer after sending the request; send it again (with its activity id)',
  },
  {
    status: 503,
    name: 'ServiceUnavailable',
    when: 'Starting, the read index not loaded yet, a payload read past its time, too many logins being checked, or the SPARQL parser or engine busy; `Retry-After` when known',
  },
  { status: 503, name: 'QueryTimeout', when: 'A SPARQL query ran past its time limit' },
  { status: 507, name: 'InsufficientStorage', when: "The store or the organisation's document quota is full" },
  {
    status: 507,
    name: 'QuotaExceeded',
    when: "A write would pass one of the organisation's bounds (DATASPACE_QUOTA_*), named in the message",
  },
];

/** `tasks[].error.name` of a failed activity-log entry (HTTP 201, `status: "failed"`). */
export const TASK_ERROR_NAMES: readonly { name: string; when: string }[] = [
  { name: 'NotFound', when: "The target consignment does not exist, or is another organisation's (the same answer)" },
  {
    name: 'Conflict',
    when: "The activity contradicts stored state: a Create of a taken globalId or identifier, an Update whose globalId and identifier name two consignments, a target identifier that is not the consignment's",
  },
  { name: 'Forbidden', when: "A location operator's match on a consignment it may read but that is not routed through its locations" },
  { name: 'FileNotFetched', when: "A Document's uRIId could not be fetched; nothing is stored, the activity may be sent again" },
];
