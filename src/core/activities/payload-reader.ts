import type { Quad } from '@rdfjs/types';
import { checkJsonShape } from './limits.js';
import { toQuads } from './parse.js';
import { ActivityGraph } from './activity-graph.js';
import { checkOwnedNodes } from './owned-nodes.js';
import { Unprocessable } from '../errors.js';

export interface PayloadCheck {
  /** Throws Unprocessable (422) when the payload breaks the shapes. */
  check(quads: Quad[]): Promise<void> | void;
}

/** An activity's JSON turned into checked RDF: what the inbox does before it decides anything. */
export interface PayloadReader {
  /** The activity's quads; throws the 4xx HttpError that refuses it. `organisation` is whose turn it takes. */
  read(body: unknown, organisation?: string): Promise<Quad[]>;
  close(): Promise<void>;
}

/**
 * Reads a payload on the calling thread: size and depth limits, JSON-LD → RDF against the bundled
 * contexts, nothing stray, nothing describing the node's resources (owned-nodes.ts), then the shapes.
 */
export class InlineReader implements PayloadReader {
  constructor(private readonly payloadCheck?: PayloadCheck) {}

  async read(body: unknown): Promise<Quad[]> {
    checkJsonShape(body);
    const quads = await toQuads(body);
    const graph = new ActivityGraph(quads);
    const stray = graph.strayQuads(quads);
    if (stray.length > 0) {
      throw new Unprocessable(
        'The activity holds data that is not part of it (@graph, @reverse, @included or a second top-level node); it would not be stored',
        {
          strayTriples: stray.length,
        },
      );
    }
    checkOwnedNodes(graph, body);
    await this.payloadCheck?.check(quads);
    return quads;
  }

  async close(): Promise<void> {}
}
