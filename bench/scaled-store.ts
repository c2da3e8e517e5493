/**
 * Bench-only: a data space of N consignments as the node would have written it, made without
 * publishing them one by one (at ~150 Creates/s on Virtuoso a million takes two days). One
 * consignment is published through the inbox pipeline on the embedded store and exported with the
 * node's `dataspace export`; its lines (state graph, record, activity-log entry, system event,
 * journal entry, usage row) are the template, written N times with the ids, identifier and sequence
 * numbers each copy needs, and the rest of the export (seed, registry, policies) once. The file is in
 * the export's form (a graph a unit), so bench/external-bulk-load.ts skolemises and bulk-loads it.
 * Every copy has the template's route and times; the organisation's usage counters are the
 * template's (one consignment), which the bench's quota leaves room for.
 */
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { exportEmbedded } from './external-bulk-load.js';
import { inProcessNode } from './in-process-node.js';
import { activity, consignment, globalIdFor, identifierFor, uuidFor } from './payloads.js';

const SEQ_PREDICATE = '<https://w3id.org/supply-chain-dataspace/ns#seq>';
const PER_CONSIGNMENT_OUT = [/<urn:dataspace:graph:registry> \.$/, /<urn:dataspace:graph:policies> \.$/, /\\"kind\\":\\"policies\\"/];

interface Template {
  /** Lines written once, a graph a unit. */
  base: string[][];
  /** One consignment's lines, a graph a unit. */
  consignment: string[][];
  /** The sequence numbers the template consignment took, lowest first. */
  seqs: number[];
  /** Random ids in it (record, state graph, activity, task, system event), to be made per copy. */
  uuids: string[];
  usageHash: string;
}

/** The export's units (graphs, split at `#` lines). */
function units(file: string): string[][] {
  const out: string[][] = [[]];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '#') out.push([]);
    else if (line.length > 0) out.at(-1)!.push(line);
  }
  return out.filter((u) => u.length > 0);
}

/** Exports a node with the seed alone and with one consignment published; their difference is the template. */
export async function makeTemplate(dir: string): Promise<Template> {
  const exports: string[] = [];
  for (const count of [0, 1]) {
    const dataDir = join(dir, `template-${count}`);
    mkdirSync(dataDir, { recursive: true });
    const { node, principal } = await inProcessNode(dataDir);
    if (count === 1) await node.ingest.receive(activity('Create', principal.org.id, consignment(1, 1)), principal);
    await node.close();
    exports.push(join(dir, `template-${count}.nq`));
    await exportEmbedded(dataDir, exports.at(-1)!);
  }
  const before = new Set(units(exports[0]!).flat());
  const base: string[][] = [];
  const copied: string[][] = [];
  const organisationUsage = new Set<string>();
  const after = units(exports[1]!);
  for (const line of after.flat()) if (line.includes('ns#organisation>')) organisationUsage.add(line.split(' ')[0]!);
  for (const unit of after) {
    const once = unit.filter((l) => before.has(l) || PER_CONSIGNMENT_OUT.some((p) => p.test(l)) || organisationUsage.has(l.split(' ')[0]!));
    const each = unit.filter((l) => !once.includes(l));
    if (once.length > 0) base.push(once);
    if (each.length > 0) copied.push(each);
  }
  const lines = copied.flat();
  const seqs = [...new Set(lines.filter((l) => l.includes(SEQ_PREDICATE)).map((l) => Number(/^\S+ \S+ "(\d+)"/.exec(l)![1])))].sort(
    (a, b) => a - b,
  );
  const own = uuidFor(1, 1);
  const uuids = [
    ...new Set(lines.flatMap((l) => l.match(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g) ?? [])),
  ].filter((u) => u !== own);
  const usageHash = /<urn:dataspace:usage:([0-9a-f]+)>/.exec(lines.find((l) => l.includes('<urn:dataspace:usage:')) ?? '')?.[1] ?? '';
  return { base, consignment: copied, seqs, uuids, usageHash };
}

/** Copy `n` (1-based) of the template's lines: its own ids, identifier and sequence numbers. */
function copyOf(template: Template, n: number): string[][] {
  const step = template.seqs.length;
  const seqOf = new Map(template.seqs.map((s, k) => [s, template.seqs[0]! + (n - 1) * step + k]));
  const ids = new Map(template.uuids.map((u) => [u, `${u.slice(0, 24)}${n.toString(16).padStart(12, '0')}`]));
  ids.set(uuidFor(1, 1), uuidFor(n, 1));
  const usage = createHash('md5').update(`usage ${n}`).digest('hex');
  const text = (line: string): string => {
    let out = line.replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, (u) => ids.get(u) ?? u);
    out = out.replaceAll(identifierFor(1, 1), identifierFor(n, 1));
    if (template.usageHash) out = out.replaceAll(template.usageHash, usage);
    for (const [from, to] of seqOf) {
      out = out
        .replace(`"${from}"^^<http://www.w3.org/2001/XMLSchema#integer>`, (m) =>
          line.includes(SEQ_PREDICATE) ? `"${to}"^^<http://www.w3.org/2001/XMLSchema#integer>` : m,
        )
        .replace(`urn:dataspace:change:${from}-0`, `urn:dataspace:change:${to}-0`)
        .replace(`\\"seq\\":${from},`, `\\"seq\\":${to},`)
        .replace(new RegExp(`ns#startRecord> "${from} `), `ns#startRecord> "${to} `);
    }
    return out;
  };
  return template.consignment.map((unit) => unit.map(text));
}

/** Writes the export of `count` consignments to `file`: the base once, then each copy. */
export async function writeScaled(template: Template, count: number, file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((ok) => out.once('drain', () => ok())));
  for (const unit of template.base) await write(`${unit.join('\n')}\n#\n`);
  for (let n = 1; n <= count; n++) for (const unit of copyOf(template, n)) await write(`${unit.join('\n')}\n#\n`);
  await new Promise<void>((ok, fail) => out.end((error?: Error | null) => (error ? fail(error) : ok())));
}

export { globalIdFor };
