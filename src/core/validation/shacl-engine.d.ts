// Types for the parts of shacl-engine (an untyped ESM package) this node uses.
declare module 'shacl-engine' {
  import type { DataFactory, DatasetCore, Literal, NamedNode, Quad, Term } from '@rdfjs/types';

  export interface EnginePointer {
    readonly term: Term;
    readonly terms: Term[];
  }

  export interface EnginePathStep {
    quantifier: 'one' | 'zeroOrOne' | 'zeroOrMore' | 'oneOrMore';
    start: 'subject' | 'object';
    end: 'subject' | 'object';
    predicates: Term[];
  }

  export interface EngineShape {
    readonly ptr: EnginePointer;
    readonly path: EnginePathStep[] | null;
  }

  export interface EngineResult {
    readonly constraintComponent: NamedNode;
    readonly focusNode: EnginePointer;
    readonly path: EnginePathStep[] | null | undefined;
    readonly results: EngineResult[];
    readonly severity: NamedNode;
    readonly shape: EngineShape;
    readonly value: EnginePointer | undefined;
    readonly message: Literal[];
  }

  export interface EngineReport {
    readonly conforms: boolean;
    readonly results: EngineResult[];
    readonly dataset: DatasetCore;
    readonly term: Term;
  }

  export interface EngineFactory extends DataFactory<Quad, Quad> {
    dataset(quads?: Quad[]): DatasetCore;
  }

  export type CompileFunction = (shape: unknown) => unknown;

  export interface ValidatorOptions {
    factory: EngineFactory;
    debug?: boolean;
    details?: boolean;
    coverage?: boolean;
    trace?: boolean;
    validations?: Iterable<[Term, CompileFunction]>;
  }

  export class Validator {
    constructor(shapes: DatasetCore, options: ValidatorOptions);
    validate(data: { dataset: DatasetCore; terms?: Iterable<Term> }, shapes?: { terms: Term[] }[]): Promise<EngineReport>;
  }
}

// The engine's own sh:datatype check (datatype and lexical form), reused by compiled-shapes.ts.
declare module 'shacl-engine/lib/validations/type.js' {
  import type { Term } from '@rdfjs/types';

  export function compileDatatype(shape: { ptr: { out(predicates: Term[]): { term: Term } } }): {
    generic(context: { valueOrNode: { term: Term }; test(result: boolean): void; factory: unknown }): void;
  };
}
