import type { Quad, Term } from '@rdfjs/types';
import { QuadIndex } from '../rdf/quad-index.js';
import { AS, DID_TYPE, RDF_TYPE, unece } from '../rdf/namespaces.js';

/** The parts of a parsed activity the node acts on, read from its quads. */
export class ActivityGraph {
  readonly index: QuadIndex;
  readonly activity: Term | undefined;
  readonly object: Term | undefined;
  readonly actor: Term | undefined;
  readonly target: Term | undefined;
  /** Quads the activity holds, all told. */
  readonly size: number;

  constructor(quads: readonly Quad[]) {
    this.index = new QuadIndex(quads);
    this.size = quads.length;
    const activity = quads.find((q) => q.predicate.value === `${AS}object`)?.subject;
    this.activity = activity;
    this.object = activity && this.index.object(activity, `${AS}object`);
    this.actor = activity && this.index.object(activity, `${AS}actor`);
    this.target = activity && this.index.object(activity, `${AS}target`);
  }

  /**
   * Quads the activity does not lead to (from @reverse, @included, a second top-level node) or that sit
   * in a named graph (@graph inside an object) would be stored nowhere, so the payload is refused.
   */
  strayQuads(all: readonly Quad[]): Quad[] {
    if (!this.activity) return [...all];
    const reachable = new Set(this.index.closure([this.activity]));
    return all.filter((q) => q.graph.termType !== 'DefaultGraph' || !reachable.has(q));
  }

  /** The actor's DID when it is given as a registeredId typed with the DID type. */
  actorDid(): string | undefined {
    if (!this.actor) return undefined;
    const id = this.index.objects(this.actor, unece('registeredId')).find((t) => t.termType === 'Literal' && t.datatype.value === DID_TYPE);
    return id?.value;
  }

  objectTypes(): string[] {
    return this.object ? this.index.objects(this.object, RDF_TYPE).map((t) => t.value) : [];
  }

  /** A literal property of a node, e.g. the object's globalId. */
  text(node: Term | undefined, property: string): string | undefined {
    if (!node) return undefined;
    const value = this.index.object(node, unece(property));
    return value?.termType === 'Literal' ? value.value : undefined;
  }

  /** Every quad that describes the object (the payload without the activity envelope). */
  objectQuads(): Quad[] {
    return this.object ? this.index.closure([this.object]) : [];
  }
}
