import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextsDir } from '../project-paths.js';

interface CodeListFile {
  values: { uri: string; value: string; comment: string }[];
}

export interface ResolvedCode {
  raw: string;
  code: string;
  label: string | null;
}

/** A UNECE code list of the D23B release, for labelling codes in read views. */
export class CodeList {
  private readonly labels = new Map<string, string>();

  constructor(readonly name: string, file: string) {
    const data = JSON.parse(readFileSync(join(contextsDir, 'codelists', file), 'utf8')) as CodeListFile;
    for (const v of data.values) this.labels.set(v.value, v.comment);
  }

  /** Accepts `unece:List#4`, the expanded IRI `https://vocabulary.uncefact.org/List#4`, or a bare `4`. */
  resolve(raw: string): ResolvedCode {
    const code = raw.includes('#') ? raw.slice(raw.lastIndexOf('#') + 1) : raw;
    return { raw, code, label: this.labels.get(code) ?? null };
  }

  has(code: string): boolean {
    return this.labels.has(code);
  }
}

export const codeLists = {
  transportMode: new CodeList('TransportModeCodeList', 'transportmodecodelist.json'),
  transportMeansType: new CodeList('TransportMeansTypeCodeList', 'transportmeanstypecodelist.json'),
  document: new CodeList('DocumentCodeList', 'documentcodelist.json'),
};
