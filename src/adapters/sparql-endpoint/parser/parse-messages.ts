import type { GuardLimits, QueryLimitExceeded } from '../guard.js';
import type { AnalysedQuery } from '../query.js';

export interface ToParser {
  id: number;
  text: string;
  maxSolutions: number;
  limits: GuardLimits;
}

/** Why a query was refused, as the parse thread saw it. */
export type Refusal =
  { reason: 'update' | 'syntax' | 'service'; message: string } | { reason: 'limit'; limit: QueryLimitExceeded['limit']; message: string };

export type FromParser = { id: number; analysed: AnalysedQuery } | { id: number; refused: Refusal };
