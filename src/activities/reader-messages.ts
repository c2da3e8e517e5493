import type { Quad } from '@rdfjs/types';

/** An activity's JSON for a reading thread. */
export interface ToReader {
  id: number;
  body: unknown;
}

/** What a reading thread answers: ready once, then per activity its quads, the refusal or a failure. */
export type FromReader =
  | { ready: true }
  | { id: number; quads: Quad[] }
  | { id: number; refused: { status: number; name: string; message: string; properties?: Record<string, unknown> } }
  | { id: number; failed: string };
