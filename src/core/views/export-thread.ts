import { parentPort, workerData } from 'node:worker_threads';
import { writeExport, type GraphTextOf } from './export-writer.js';
import type { RdfFormat } from './rdf-formats.js';

// A large export written away from the event loop: canonical labels, syntax and JSON-LD compaction
// cost seconds for a consignment of a few MB (see rdf-export.ts).
const { graphs, format, contextUrl } = workerData as { graphs: GraphTextOf[]; format: RdfFormat; contextUrl: string };
parentPort!.postMessage(await writeExport(graphs, format, contextUrl));
