/**
 * Tests of the HTTP suite that cannot hold on an external store, each with the reason. The rest of
 * test/http runs unchanged against Virtuoso.
 */
export const EMBEDDED_ONLY: { test: string; reason: string }[] = [
  { test: 'keeps passwords only as scrypt hashes', reason: 'reads the embedded change log files' },
  { test: 'writes nothing when the seed is the same', reason: 'reads the embedded change log files' },
  {
    test: 'applies the seed idempotently and keeps data and tokens across restarts',
    reason: "counts quads in the embedded store's memory",
  },
  { test: 'refuses SPARQL Update in every form with 403 and changes nothing', reason: "counts quads in the embedded store's memory" },
  {
    test: 'stops a query past the time limit with 503',
    reason: "the endpoint's own time limit is for the embedded engine; a SPARQL server enforces its own (Virtuoso: MaxQueryExecutionTime)",
  },
  {
    test: 'answers every row of a two-node join',
    reason:
      "two nodes on the one Virtuoso store would share one dataset (the second start clears the first's data); a node is its store's one writer",
  },
  {
    test: 'runs one query over two nodes with a token per node',
    reason: "two nodes on the one Virtuoso store would share one dataset; a node is its store's one writer",
  },
  {
    test: 'accepts every valid fixture as the inline reader does',
    reason:
      "publishes each fixture (fixed globalIds) on two nodes at once; on the one Virtuoso store the second sees the first's consignment, since a Create's globalId is checked against every resource in the store",
  },
  {
    test: 'signals: delivery, retries and order',
    reason: "delivery timings (retry waits, give-up deadline) are tuned to the embedded store's speed",
  },
  {
    test: 'SPARQL endpoint: engine threads started from an engine image',
    reason: "engine images are of the embedded engine threads' copies; a SPARQL server answers queries itself",
  },
  {
    test: 'SPARQL endpoint: engine images and memory compaction',
    reason: "engine images are of the embedded engine threads' copies; a SPARQL server answers queries itself",
  },
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A mocha --grep pattern of those tests' titles, for running the rest with --invert. */
export const embeddedOnlyPattern = (): string => EMBEDDED_ONLY.map((e) => escape(e.test)).join('|');
