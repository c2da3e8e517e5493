import type { Change } from '../store/quad-store.js';

/** Messages to the SPARQL engine thread, in the order they must take effect. */
export type ToWorker =
  | { type: 'change'; change: Change }
  | { type: 'recover' }
  | { type: 'query'; id: number; query: string; defaultGraphs: string[]; namedGraphs: string[]; format: string };

export type FromWorker =
  | { type: 'ready'; quads: number }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; text: string }
  | { type: 'error'; id: number; message: string };
