import { iriToString, literalToString } from './terms.js';

/** Builds N-Quads text from terms given as IRIs or literals; every term goes through the safe serialisers. */
export class NQuadsBuilder {
  private readonly lines: string[] = [];

  constructor(private readonly graph: string) {}

  iri(subject: string, predicate: string, object: string): this {
    this.lines.push(`${iriToString(subject)} ${iriToString(predicate)} ${iriToString(object)} ${iriToString(this.graph)} .`);
    return this;
  }

  literal(subject: string, predicate: string, value: string | number, datatype?: string): this {
    const lexical = String(value);
    const type = datatype ?? (typeof value === 'number' ? 'http://www.w3.org/2001/XMLSchema#integer' : undefined);
    this.lines.push(`${iriToString(subject)} ${iriToString(predicate)} ${literalToString(lexical, type)} ${iriToString(this.graph)} .`);
    return this;
  }

  toString(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}
