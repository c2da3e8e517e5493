import type { Quad } from '@rdfjs/types';
import type { QuadWire } from '../rdf/quad-wire.js';
import type { ReportFormat, ValidateAnswer } from './validate-payload.js';

/** An activity's JSON for a reading thread: to read for the inbox, or to validate for /validate. */
export interface ToReader {
  id: number;
  body: unknown;
  /** Present: validate only and answer the report in this format. */
  validate?: ReportFormat;
}

/** What a reading thread answers: ready once, then per activity its quads or report, the refusal or a failure. */
export type FromReader =
  | { ready: true }
  | { id: number; quads: Quad[] }
  /** The quads in their flat form (src/core/rdf/quad-wire.ts), far cheaper to clone and read back than term objects. */
  | { id: number; wire: QuadWire }
  | { id: number; validated: ValidateAnswer }
  | { id: number; refused: { status: number; name: string; message: string; properties?: Record<string, unknown> } }
  | { id: number; failed: string };
