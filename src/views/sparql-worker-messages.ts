import type { Change } from '../store/quad-store.js';

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
  | { type: 'recover' }
  | QueryMessage;

export type FromWorker =
  | { type: 'ready'; quads: number }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; text: string }
  /** The thread's copy holds enough removed quads to be worth replacing by a fresh one (compaction-policy.ts). */
  | { type: 'compact'; dead: number; live: number }
  /** `fatal`: the engine itself broke (WebAssembly trap, stack overflow); the thread must be replaced. */
  | { type: 'error'; id: number; message: string; fatal?: boolean };
