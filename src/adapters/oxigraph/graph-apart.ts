import oxigraph from 'oxigraph';
import { GRAPHS } from '../../core/rdf/namespaces.js';
import type { Change, ChangeOp } from '../../core/ports/quad-store.js';

/**
 * The graph the embedded store keeps in an Oxigraph instance of its own: the activity log. It is
 * append-only, read by six queries that name it alone (QuadStore.activityLog), and its long JSON
 * literals take a large share of the store's WebAssembly memory (docs/performance.md, Keeping a graph
 * apart), memory the other graphs need under the 4 GiB a 32-bit instance can have.
 */
export const APART_GRAPH = GRAPHS.activityLog;

/**
 * How a line of N-Quads in that graph ends. A line of N-Quads ends with its graph term, and the node
 * never writes a default-graph triple whose object is that graph's IRI, so the end tells them apart
 * without parsing.
 */
const APART_END = ` <${APART_GRAPH}> .`;
const APART_END_BYTES = Buffer.from(APART_END);
const NEWLINE = 0x0a;

/** The lines of `nquads` in the apart graph, and the others. */
export function splitNQuadsText(nquads: string): { rest: string; apart: string } {
  if (!nquads.includes(APART_END)) return { rest: nquads, apart: '' };
  const rest: string[] = [];
  const apart: string[] = [];
  for (const line of nquads.split('\n')) {
    if (line.length === 0) continue;
    (line.endsWith(APART_END) ? apart : rest).push(line);
  }
  const text = (lines: string[]) => (lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  return { rest: text(rest), apart: text(apart) };
}

function part(op: ChangeOp): { rest?: ChangeOp; apart?: ChangeOp } {
  if (op.op !== 'insert') return op.graph === APART_GRAPH ? { apart: op } : { rest: op };
  const { rest, apart } = splitNQuadsText(op.nquads);
  return {
    ...(rest.length > 0 ? { rest: rest === op.nquads ? op : { op: 'insert', nquads: rest } } : {}),
    ...(apart.length > 0 ? { apart: { op: 'insert', nquads: apart } } : {}),
  };
}

/** A change cut in two: what it does to the apart graph, and to every other. */
export function splitChange(change: Change): { rest: Change; apart: Change } {
  const rest: ChangeOp[] = [];
  const apart: ChangeOp[] = [];
  for (const op of change.ops) {
    const parts = part(op);
    if (parts.rest) rest.push(parts.rest);
    if (parts.apart) apart.push(parts.apart);
  }
  return { rest: { ops: rest }, apart: { ops: apart } };
}

/**
 * The lines of a chunk of N-Quads bytes in the apart graph, and the others (a snapshot's chunk: see
 * readUnits). A chunk without any comes back as it is; the lines of each part keep their order.
 */
export function splitNQuadsBytes(bytes: Uint8Array): { rest: Uint8Array; apart: Uint8Array; apartLines: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = buffer.indexOf(APART_END_BYTES);
  if (at < 0) return { rest: bytes, apart: new Uint8Array(0), apartLines: 0 };
  const rest: Buffer[] = [];
  const apart: Buffer[] = [];
  let apartLines = 0;
  let from = 0;
  while (at >= 0) {
    const end = at + APART_END_BYTES.length;
    // Not a line's end (more of the line follows): not a quad of the apart graph.
    if (end < buffer.length && buffer[end] !== NEWLINE) {
      at = buffer.indexOf(APART_END_BYTES, end);
      continue;
    }
    const lineStart = at === 0 ? 0 : buffer.lastIndexOf(NEWLINE, at - 1) + 1;
    const lineEnd = Math.min(buffer.length, end + 1);
    if (lineStart > from) rest.push(buffer.subarray(from, lineStart));
    apart.push(buffer.subarray(lineStart, lineEnd));
    apartLines += 1;
    from = lineEnd;
    at = buffer.indexOf(APART_END_BYTES, from);
  }
  if (from < buffer.length) rest.push(buffer.subarray(from));
  return { rest: Buffer.concat(rest), apart: Buffer.concat(apart), apartLines };
}

/** Each change's two parts (splitChange), in order: the rest's and the apart graph's. */
export function splitChanges(changes: Iterable<Change>): { rest: Change[]; apart: Change[] } {
  const rest: Change[] = [];
  const apart: Change[] = [];
  for (const change of changes) {
    const parts = splitChange(change);
    rest.push(parts.rest);
    apart.push(parts.apart);
  }
  return { rest, apart };
}

/**
 * N-Quads text or bytes cut in two as splitNQuadsText does; unless `trusted`, the apart part is checked
 * here, before either is loaded: a bad line in one part must leave the other unloaded too.
 */
export function splitNQuads<T extends string | Uint8Array>(nquads: T, trusted: boolean): { rest: T; apart: T } {
  const parts = (typeof nquads === 'string' ? splitNQuadsText(nquads) : splitNQuadsBytes(nquads)) as { rest: T; apart: T };
  if (!trusted && parts.apart.length > 0)
    oxigraph.parse(typeof parts.apart === 'string' ? parts.apart : Buffer.from(parts.apart).toString('utf8'), {
      format: 'application/n-quads',
    });
  return parts;
}
