/**
 * What the node must know of one SPARQL 1.1 server beyond the protocol: how much it answers and takes
 * at once, and the term forms it answers with that differ from the canonical ones. Each server has one
 * profile, in a file named for it beside this one, with the reason for every figure; another server is
 * another profile (and a test helper that starts it, as test/helpers/virtuoso.ts does).
 */
export interface ServerProfile {
  readonly name: string;
  /** Rows the server answers at most, whatever LIMIT asks for: paged reads ask for no more at once. */
  readonly rowCap: number;
  /** Changes one Update request carries at most. */
  readonly batchChanges: number;
  /** Characters of N-Quads and terms one Update request carries at most. */
  readonly batchChars: number;
  /** Requests the node keeps open at once, below the connections the server serves. */
  readonly maxRequests: number;
  /**
   * Lexical forms of xsd:boolean the server answers with besides "true" and "false", and the canonical
   * form each stands for: the node's code compares canonical forms.
   */
  readonly booleanForms: Readonly<Record<string, 'true' | 'false'>>;
  /**
   * Whether an operation at the head of an Update request can fail the whole request
   * (sparql/store/fence-guard.rq): a replica set's writer's requests are then fenced once, by that
   * guard, and not operation by operation.
   */
  readonly fenceGuard?: boolean;
}
