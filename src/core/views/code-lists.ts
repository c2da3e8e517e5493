import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contextsDir } from '../project-paths.js';

interface CodeListFile {
  values: { uri: string; value: string; comment: string }[];
}

/** A code as the read view gives it (spec 2.9 `{raw, code, label}`); `label` is left out for a code the list does not hold. */
export interface ResolvedCode {
  raw: string;
  code: string;
  label?: string;
}

/** A UNECE code list of the D23B release, for labelling codes in read views. */
export class CodeList {
  private readonly labels = new Map<string, string>();

  constructor(
    readonly name: string,
    file: string,
  ) {
    const data = JSON.parse(readFileSync(join(contextsDir, 'codelists', file), 'utf8')) as CodeListFile;
    for (const v of data.values) this.labels.set(v.value, v.comment);
  }

  /** Accepts `unece:List#4`, the expanded IRI `https://vocabulary.uncefact.org/List#4`, or a bare `4`. */
  resolve(raw: string): ResolvedCode {
    const code = raw.includes('#') ? raw.slice(raw.lastIndexOf('#') + 1) : raw;
    const label = this.labels.get(code);
    return label === undefined ? { raw, code } : { raw, code, label };
  }

  has(code: string): boolean {
    return this.labels.has(code);
  }
}

export const codeLists = {
  transportMode: new CodeList('TransportModeCodeList', 'transportmodecodelist.json'),
  transportMeansType: new CodeList('TransportMeansTypeCodeList', 'transportmeanstypecodelist.json'),
  document: new CodeList('DocumentCodeList', 'documentcodelist.json'),
  transportEquipmentCategory: new CodeList('TransportEquipmentCategoryCodeList', 'transportequipmentcategorycodelist.json'),
  packageType: new CodeList('PackageTypeCodeList', 'packagetypecodelist.json'),
  country: new CodeList('CountryId', 'countryid.json'),
};
