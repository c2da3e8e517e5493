import type { ServerProfile } from './server-profile.js';

/** OpenLink Virtuoso 7 (deploy/virtuoso.ini; test/helpers/virtuoso.ts starts one for the tests). */
export const VIRTUOSO: ServerProfile = {
  name: 'virtuoso',
  // Its default ResultSetMaxRows: answers past it are cut short without an error.
  rowCap: 10_000,
  // It parses the whole text of a request before running it, and refuses or slows on huge ones.
  batchChanges: 64,
  batchChars: 2 * 1024 * 1024,
  // It serves a fixed number of HTTP threads and keep-alive connections (ServerThreads, MaxKeepAlives:
  // 10 in the test set-up, 20 in deploy/virtuoso.ini) and resets connections beyond them ("fetch
  // failed" on views at 16 concurrent readers).
  maxRequests: 8,
  // It writes xsd:boolean as "1"/"0", valid lexical forms but not the canonical ones.
  booleanForms: { 1: 'true', 0: 'false' },
  // bif:signal raised in a FILTER fails the request before its later operations run
  // (test/replicas/fence-guard.test.ts).
  fenceGuard: true,
};
