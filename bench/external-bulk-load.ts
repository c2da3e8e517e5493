/**
 * Bench-only: fills a Virtuoso with the state the node's own pipeline produced, much faster than
 * seeding through the inbox on it (~100 Creates/s there, so ~17 min for 100k). The consignments are
 * seeded on the embedded store (bench/bulk-seed.ts: the inbox pipeline in-process), exported with the
 * node's `dataspace export` (N-Quads, one unit a graph), every graph's lines rewritten by the same
 * function the SPARQL store writes its inserts with (addQuadLines: blank nodes skolemised per insert),
 * and loaded with Virtuoso's bulk loader (ld_dir + rdf_loader_run, a Virtuoso-only tool used here and
 * never by the node). The node then starts on that Virtuoso with the embedded data dir (its JWT secret
 * and document files), as if it had written everything itself.
 * Used by bench/external-store.ts.
 */
import { closeSync, createReadStream, mkdirSync, openSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '../src/core/project-paths.js';
import { addQuadLines } from '../src/adapters/sparql-server/sparql-server-text.js';
import type { Virtuoso } from '../test/helpers/virtuoso.js';
import { runScript } from './processes.js';

const PART_BYTES = 64 * 1024 * 1024;

/** Exports an embedded data dir to N-Quads with the node's own CLI. */
export async function exportEmbedded(dataDir: string, file: string): Promise<void> {
  await runScript(join(resolve(projectRoot, 'dist'), 'src', 'adapters', 'cli', 'export.js'), [file, '--include-secrets'], {
    DATASPACE_DATA_DIR: dataDir,
    DATASPACE_STORE: 'embedded',
    DATASPACE_LOG: 'warn',
    NODE_OPTIONS: '--max-old-space-size=8000',
  });
}

/** The export's graphs as N-Quads files for Virtuoso's loader, under `dir`, each graph skolemised as the SPARQL store would. */
export async function skolemisedParts(exportFile: string, dir: string): Promise<{ parts: number; quads: number }> {
  mkdirSync(dir, { recursive: true });
  let part = -1;
  let fd = -1;
  let written = PART_BYTES;
  let quads = 0;
  let labels = new Map<string, string>();
  const flush = (unit: string[]) => {
    if (unit.length === 0) return;
    const byGraph = new Map<string, string[]>();
    addQuadLines(`${unit.join('\n')}\n`, byGraph, labels);
    let text = '';
    for (const [graph, lines] of byGraph) for (const line of lines) text += `${line.slice(0, -1)}<${graph}> .\n`;
    quads += unit.length;
    if (written >= PART_BYTES) {
      if (fd >= 0) closeSync(fd);
      fd = openSync(join(dir, `part-${String(++part).padStart(4, '0')}.nq`), 'w');
      written = 0;
    }
    writeSync(fd, text);
    written += text.length;
  };
  let unit: string[] = [];
  for await (const line of createInterface({ input: createReadStream(exportFile), crlfDelay: Infinity })) {
    if (line === '#') {
      flush(unit);
      unit = [];
      labels = new Map();
    } else if (line.length > 0) {
      unit.push(line);
      // A graph of millions of quads (the metadata, the activity log) goes in chunks of one scope.
      if (unit.length >= 100_000) {
        flush(unit);
        unit = [];
      }
    }
  }
  flush(unit);
  if (fd >= 0) closeSync(fd);
  return { parts: part + 1, quads };
}

/** Seeded embedded data dir → the same graphs in `virtuoso`. Times in ms. */
export async function bulkLoad(
  virtuoso: Virtuoso,
  dataDir: string,
): Promise<{ quads: number; exportMs: number; rewriteMs: number; loadMs: number }> {
  const t0 = performance.now();
  const exportFile = join(virtuoso.dir, 'export.nq');
  await exportEmbedded(dataDir, exportFile);
  const t1 = performance.now();
  const { quads } = await skolemisedParts(exportFile, join(virtuoso.dir, 'load'));
  const t2 = performance.now();
  // Relative to the server's working directory, which its DirsAllowed (".") admits.
  await virtuoso.isql("ld_dir ('load', '*.nq', 'urn:dataspace:graph:none');");
  // One loader a core, as Virtuoso's bulk-loading guide advises; then a checkpoint makes it durable.
  await Promise.all([0, 1].map(() => virtuoso.isql('rdf_loader_run ();')));
  await virtuoso.isql('checkpoint;');
  return { quads, exportMs: t1 - t0, rewriteMs: t2 - t1, loadMs: performance.now() - t2 };
}
