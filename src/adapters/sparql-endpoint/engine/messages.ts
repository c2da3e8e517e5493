import type { Change } from '../../../core/ports/quad-store.js';

/** The caller as the coverage rule needs it. */
export interface EnginePrincipal {
  id: string;
  role: 'freightForwarder' | 'borderAgency' | 'locationOperator';
  country?: string;
  locations: string[];
}

export interface QueryMessage {
  type: 'query';
  id: number;
  query: string;
  format: string;
  principal: EnginePrincipal;
  /** Graphs named by FROM / FROM NAMED or the protocol; absent: every graph the caller may see. */
  requested?: { default: string[]; named: string[] };
}

/** Messages to the SPARQL engine thread, in the order they must take effect. */
export type ToWorker =
  | { type: 'change'; change: Change }
  /** `images`: start from the newest engine image if there is a usable one (not for a compaction's replacement). */
  | { type: 'recover'; images?: boolean }
  /**
   * Every change before log `generation` has been sent, none after: save the copy as that generation's
   * engine image (docs/engine-images.md). Sent to one thread only.
   */
  | { type: 'image'; generation: number }
  | QueryMessage;

export type FromWorker =
  /** `from`: an engine image or the N-Quads snapshot; `reason`: why not the image, when one was asked for. */
  | { type: 'ready'; quads: number; from: 'image' | 'snapshot'; reason?: string; generation?: number }
  /** The thread takes queries again: an engine image's bytes are written (or it was not taken). */
  | { type: 'resumed' }
  /** The engine image of `generation` was written (or, with `error`, not). */
  | { type: 'imaged'; generation: number; bytes?: number; pauseMs?: number; ms?: number; error?: string }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; text: string }
  /** The thread's copy holds enough removed quads to be worth replacing by a fresh one (compaction-policy.ts). */
  | { type: 'compact'; dead: number; live: number }
  /** `fatal`: the engine itself broke (WebAssembly trap, stack overflow); the thread must be replaced. */
  | { type: 'error'; id: number; message: string; fatal?: boolean };
