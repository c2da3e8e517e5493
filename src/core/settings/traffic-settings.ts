import { integer, text, type Setting } from './row.js';

const MIB = 1024 * 1024;

/** What the node sends and fetches, and what each organisation may have it store. */
export const TRAFFIC_SETTINGS: Setting[] = [
  text(
    'DATASPACE_FETCH_ALLOW',
    'list',
    '*',
    'Where Document files may be fetched from: host names, `*.suffix`, addresses, CIDR ranges, `*` for every public host',
    'document-files.md',
  ),
  integer('DATASPACE_FETCH_MAX_BYTES', 25 * MIB, 1, 'Largest Document file fetched', 'document-files.md', { shown: '`26214400` (25 MiB)' }),
  integer('DATASPACE_FETCH_TIMEOUT_MS', 15_000, 100, 'A file fetch still unfinished after this long fails', 'document-files.md'),
  integer('DATASPACE_FETCH_MAX_REDIRECTS', 5, 0, 'Redirects one fetch follows', 'document-files.md'),
  integer('DATASPACE_FETCH_CONCURRENCY', 8, 1, 'Files fetched at once; an organisation holds at most half, in turns', 'document-files.md'),
  integer('DATASPACE_FETCH_QUEUE_PER_ORG', 32, 1, "An organisation's fetches waiting before `429`", 'document-files.md'),
  integer('DATASPACE_DOCUMENT_QUOTA_BYTES', 1024 * MIB, 0, 'Bytes of files kept per organisation; `0` no quota', 'document-files.md', {
    shown: '`1073741824` (1 GiB)',
  }),
  integer(
    'DATASPACE_NOTIFY_RETRY_MS',
    1000,
    1,
    'Delay ceiling of the first signal retry; it doubles with every further failure',
    'signals.md',
  ),
  integer('DATASPACE_NOTIFY_MAX_DELAY_MS', 60 * 60 * 1000, 1, 'Longest delay between two signal retries', 'signals.md', {
    shown: '`3600000` (1 h)',
  }),
  integer('DATASPACE_NOTIFY_GIVE_UP_MS', 24 * 60 * 60 * 1000, 0, 'A signal still undelivered after this long is given up', 'signals.md', {
    shown: '`86400000` (24 h)',
  }),
  integer('DATASPACE_NOTIFY_TIMEOUT_MS', 10_000, 1, 'How long one delivery attempt may take before it counts as failed', 'signals.md'),
  integer('DATASPACE_NOTIFY_CONCURRENCY', 8, 1, 'Receivers (consignment × organisation queues) served at the same time', 'signals.md'),
  text(
    'DATASPACE_NOTIFY_ALLOW',
    'list',
    '*',
    'Where endpoints registered over the API may point, in the syntax of `DATASPACE_FETCH_ALLOW`',
    'security.md',
  ),
  integer(
    'DATASPACE_REDELIVER_BURST',
    20,
    1,
    'Redeliveries one organisation may ask for at once, refilled evenly over the hour; `429` past it',
    'signals.md',
  ),
  integer('DATASPACE_REDELIVER_PER_HOUR', 120, 1, 'Redeliveries one organisation may ask for per hour', 'signals.md'),
  integer('DATASPACE_QUOTA_CONSIGNMENTS', 100_000, 0, 'Consignments created by one organisation', 'security.md'),
  integer('DATASPACE_QUOTA_GRAPHS', 1_000_000, 0, 'Events and document revisions added by one organisation', 'security.md'),
  integer('DATASPACE_QUOTA_BYTES', 1024 * MIB, 0, "Bytes (N-Quads) one organisation's writes added", 'security.md'),
  integer('DATASPACE_QUOTA_POLICIES', 100, 0, 'Data-sharing policies registered by one organisation', 'security.md'),
  integer(
    'DATASPACE_QUOTA_POLICY_VALUES',
    10_000,
    0,
    'Countries, locations and consignments named by one policy (`413` past it)',
    'security.md',
  ),
  integer(
    'DATASPACE_QUOTA_CONSIGNMENT_GRAPHS',
    5_000,
    0,
    'Events and document revisions the owner added to one consignment',
    'security.md',
  ),
  integer('DATASPACE_QUOTA_CONSIGNMENT_BYTES', 16 * MIB, 0, "Bytes the owner's writes added to one consignment", 'security.md'),
  integer('DATASPACE_QUOTA_CONTRIBUTIONS', 1_000, 0, 'Events other organisations added to one consignment, all together', 'security.md'),
  integer(
    'DATASPACE_QUOTA_CONTRIBUTION_BYTES',
    8 * MIB,
    0,
    'Bytes other organisations added to one consignment, all together',
    'security.md',
  ),
  integer('DATASPACE_QUOTA_CONTRIBUTOR_GRAPHS', 200, 0, 'Events one other organisation added to one consignment', 'security.md'),
  integer('DATASPACE_QUOTA_CONTRIBUTOR_BYTES', 2 * MIB, 0, 'Bytes one other organisation added to one consignment', 'security.md'),
  integer('DATASPACE_QUOTA_USERS', 1_000, 0, 'User accounts of one organisation', 'security.md'),
  integer('DATASPACE_QUOTA_CLIENTS', 100, 0, 'Machine clients of one organisation', 'security.md'),
];
