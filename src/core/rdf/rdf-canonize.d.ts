// rdf-canonize ships no types; only the call the node makes.
declare module 'rdf-canonize' {
  interface CanonizeOptions {
    algorithm: 'RDFC-1.0' | 'URDNA2015';
    inputFormat?: 'application/n-quads';
    format?: 'application/n-quads';
    maxWorkFactor?: number;
  }
  const rdfCanonize: { canonize(input: unknown, options: CanonizeOptions): Promise<string | unknown[]> };
  export default rdfCanonize;
}
