/**
 * Generates the data-derived shape files from the bundled UNECE D23B data and the event-code table,
 * so that they can be reproduced byte for byte (a unit test checks the committed files against this
 * output):
 *
 * - shapes/codelists.ttl: one node shape per UNECE code list the interface validates against
 *   (`sh:in` with every code of contexts/codelists/*.json, in each written form the interface admits).
 * - shapes/d23b-ranges.ttl: one node shape per D23B class (contexts/unece-d23b-classes/*.json) that
 *   checks every field of the class against its D23B range, and applies the hand-written shapes to
 *   nested objects by range.
 * - shapes/payload-parents.ttl: the field lists the payload-root rules need (renderParentShapes).
 * - shapes/event-codes.ttl: the event codes the node recognises (event-code-shapes.ts).
 *
 * Run `npm run generate-shapes` after changing the data or the
 * tables below.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contextsDir, shapesDir } from '../src/core/project-paths.js';
import { renderEventCodeShapes } from './event-code-shapes.js';

const UNECE = 'https://vocabulary.uncefact.org/';

interface CodeListFile {
  label: string;
  uri: string;
  values: { uri: string; value: string; comment: string | string[] }[];
}

interface ClassFile {
  label: string;
  uri: string;
  objectProperties: { uri: string; type?: string }[];
}

/** How a code may be written. `iri`: the expanded IRI (what an `@vocab` term gives); `compact`: the
 * string "unece:<List>#<code>" (what an `xsd:string` term gives); `bare`: the code alone. */
type Form = 'iri' | 'compact' | 'bare';

interface CodeListSource {
  file: string;
  prefix: string;
  forms: Form[];
  /** Also admit the code with this prefix (Rec 20 writes Rec 21 package codes as X<code>). */
  barePrefix?: string;
}

interface CodeShape {
  name: string;
  label: string;
  message: string;
  sources: CodeListSource[];
}

const CODE_SHAPES: CodeShape[] = [
  {
    name: 'CountryCode',
    label: 'ISO 3166-1 alpha-2 country code (UNECE CountryId)',
    message:
      '{$value} is not a country code of the UNECE CountryId list; write unece:CountryId#<ISO 3166-1 alpha-2 code>, e.g. unece:CountryId#GB',
    sources: [{ file: 'countryid.json', prefix: 'country', forms: ['iri'] }],
  },
  {
    name: 'DocumentCode',
    label: 'UNCL 1001 document code (UNECE DocumentCodeList)',
    message:
      '{$value} is not a UNCL 1001 document code of the DocumentCodeList; write unece:DocumentCodeList#<code>, e.g. unece:DocumentCodeList#380',
    // xsd:string under the D23B release context, @vocab under later ones: both forms are admitted.
    sources: [{ file: 'documentcodelist.json', prefix: 'document', forms: ['iri', 'compact'] }],
  },
  {
    name: 'TransportModeCode',
    label: 'UNECE Rec 19 transport mode code (TransportModeCodeList)',
    message:
      '{$value} is not a transport mode code of the TransportModeCodeList (UNECE Rec 19); write unece:TransportModeCodeList#<0-9>, e.g. unece:TransportModeCodeList#3 for road',
    sources: [{ file: 'transportmodecodelist.json', prefix: 'mode', forms: ['iri', 'compact'] }],
  },
  {
    name: 'TransportMeansTypeCode',
    label: 'UNECE Rec 28 transport means type code (TransportMeansTypeCodeList)',
    message:
      '{$value} is not a transport means type code of the D23B TransportMeansTypeCodeList (UNECE Rec 28); write unece:TransportMeansTypeCodeList#<code>, e.g. unece:TransportMeansTypeCodeList#3103',
    sources: [{ file: 'transportmeanstypecodelist.json', prefix: 'means', forms: ['iri'] }],
  },
  {
    name: 'TransportEquipmentCategoryCode',
    label: 'UNECE transport equipment category code (TransportEquipmentCategoryCodeList)',
    message:
      '{$value} is not a code of the TransportEquipmentCategoryCodeList; write unece:TransportEquipmentCategoryCodeList#<code>, e.g. unece:TransportEquipmentCategoryCodeList#CN',
    sources: [{ file: 'transportequipmentcategorycodelist.json', prefix: 'equipment', forms: ['iri'] }],
  },
  {
    name: 'PackageTypeCode',
    label: 'UNECE Rec 21 package type code (PackageTypeCodeList)',
    message:
      '{$value} is not a package type code of the PackageTypeCodeList (UNECE Rec 21); write unece:PackageTypeCodeList#<code>, e.g. unece:PackageTypeCodeList#CT',
    sources: [{ file: 'packagetypecodelist.json', prefix: 'package', forms: ['iri'] }],
  },
  {
    name: 'WeightUnitCode',
    label: 'UNECE weight unit code (WeightUnitMeasureCode, a Rec 20 subset)',
    message:
      '{$value} is not a weight unit code of the WeightUnitMeasureCode list (GRM, KGM, TNE); write unece:WeightUnitMeasureCode#KGM or KGM',
    sources: [{ file: 'weightunitmeasurecode.json', prefix: 'weight', forms: ['iri', 'compact', 'bare'] }],
  },
  {
    name: 'QuantityUnitCode',
    label: 'UNECE quantity unit code (Rec 20 UnitMeasureCode, or a Rec 21 package type code)',
    message:
      '{$value} is not a UNECE unit code: write a Rec 20 code (unece:UnitMeasureCode#C62 or C62) or a Rec 21 package code (unece:PackageTypeCodeList#CT, CT or XCT)',
    sources: [
      { file: 'unitmeasurecode.json', prefix: 'unit', forms: ['iri', 'compact', 'bare'] },
      { file: 'packagetypecodelist.json', prefix: 'package', forms: ['iri', 'compact', 'bare'], barePrefix: 'X' },
    ],
  },
];

/** Ranges the D23B class data gives as a code-list class, mapped to the bundled list's shape. */
const CODE_LIST_RANGES: Record<string, string> = {
  'unece:CountryId': 'CountryCode',
  'unece:DocumentCodeList': 'DocumentCode',
  'unece:TransportModeCodeList': 'TransportModeCode',
  'unece:TransportMeansTypeCodeList': 'TransportMeansTypeCode',
  'unece:TransportEquipmentCategoryCodeList': 'TransportEquipmentCategoryCode',
  'unece:PackageTypeCodeList': 'PackageTypeCode',
};

/** The D23B release types these as xsd:string; the interface validates them as codes (spec 2.4, 2.7). */
const RANGE_OVERRIDES: Record<string, string> = {
  'unece:documentTypeCode': 'unece:DocumentCodeList',
  'unece:transportModeCode': 'unece:TransportModeCodeList',
};

/** Hand-written shapes (shapes/*.ttl) applied to nested objects of these D23B ranges. */
const CLASS_SHAPES: Record<string, string> = {
  'unece:Consignment': 'ConsignmentShape',
  'unece:ConsignmentItem': 'ConsignmentItemShape',
  'unece:TradeParty': 'TradePartyShape',
  'unece:TradeAddress': 'TradeAddressShape',
  'unece:LogisticsLocation': 'LogisticsLocationShape',
  // The interface writes occurrenceLocation (range Location) as a LogisticsLocation with a UN/LOCODE.
  'unece:Location': 'LogisticsLocationShape',
  'unece:TransportMovement': 'TransportMovementShape',
  'unece:LogisticsTransportMeans': 'TransportMeansShape',
  'unece:LogisticsTransportEquipment': 'TransportEquipmentShape',
  'unece:Country': 'CountryShape',
  'unece:QuantityType': 'QuantityShape',
  'unece:WeightUnitMeasureType': 'WeightMeasureShape',
};

const PREAMBLE = `@prefix rdf:   <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs:  <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd:   <http://www.w3.org/2001/XMLSchema#> .
@prefix sh:    <http://www.w3.org/ns/shacl#> .
@prefix unece: <https://vocabulary.uncefact.org/> .
@prefix dsh:   <https://w3id.org/supply-chain-dataspace/shapes#> .
`;

/** An ISO 8601 extended date-time whose date is a real calendar date (days by month, 29 February
 * in leap years only: every fourth year, not centuries unless divisible by 400), T, hours and minutes,
 * optional seconds and fraction, and a required offset (Z or ±hh:mm, ±hhmm accepted, up to ±14:00).
 * src/core/rdf/date-times.ts rewrites what this admits into the one stored form. Plain groups only:
 * sh:pattern is XPath regex syntax, which has no (?:…). */
const DAY_OF_YEAR = '[0-9]{4}-((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))';
const LEAP_DAY = '([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[048]|[2468][048]|[13579][26])00)-02-29';
export const ISO_DATE_TIME_PATTERN = `^(${DAY_OF_YEAR}|${LEAP_DAY})T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?(Z|[+-]((0[0-9]|1[0-3]):?[0-5][0-9]|14:?00))$`;
const DATE_TIME_MESSAGE =
  'A date-time field: {$value} is not an ISO 8601 date-time with a calendar date and an offset, such as 2024-05-14T08:30:00Z or 2024-05-14T10:30:00+02:00';

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function readCodeList(file: string): CodeListFile {
  return readJson<CodeListFile>(join(contextsDir, 'codelists', file));
}

function turtleString(value: string): string {
  return JSON.stringify(value);
}

function comment(text: string | string[]): string {
  const one = Array.isArray(text) ? (text[0] ?? '') : text;
  return one.replace(/\s+/g, ' ').trim();
}

function localOf(curie: string): string {
  return curie.replace(/^(unece|svc):/, '');
}

export function renderCodelistShapes(): string {
  const prefixes = new Map<string, string>();
  const blocks: string[] = [];
  for (const shape of CODE_SHAPES) {
    const lines: string[] = [];
    const seen = new Set<string>();
    for (const source of shape.sources) {
      const list = readCodeList(source.file);
      const listName = localOf(list.uri);
      prefixes.set(source.prefix, `${UNECE}${listName}#`);
      for (const code of list.values) {
        if (!/^[A-Za-z0-9]+$/.test(code.value)) throw new Error(`unexpected code ${code.value} in ${source.file}`);
        const forms: string[] = [];
        if (source.forms.includes('iri')) forms.push(`${source.prefix}:${code.value}`);
        if (source.forms.includes('compact')) forms.push(turtleString(`unece:${listName}#${code.value}`));
        if (source.forms.includes('bare')) forms.push(turtleString(code.value));
        if (source.barePrefix !== undefined) forms.push(turtleString(`${source.barePrefix}${code.value}`));
        // A bare code can belong to two lists (Rec 20 and Rec 21): list it once.
        const fresh = forms.filter((term) => !seen.has(term));
        fresh.forEach((term) => seen.add(term));
        if (fresh.length > 0) lines.push(`    ${fresh.join(' ')}  # ${comment(code.comment)}`);
      }
    }
    blocks.push(`dsh:${shape.name}
  a sh:NodeShape ;
  rdfs:label ${turtleString(shape.label)} ;
  sh:message ${turtleString(shape.message)} ;
  sh:in (
${lines.join('\n')}
  ) .
`);
  }

  const countries = readCodeList('countryid.json').values.map((v) => v.value);
  blocks.push(`dsh:UNLocodeCountry
  a sh:NodeShape ;
  rdfs:label "UN/LOCODE whose country part is an ISO 3166-1 alpha-2 code of the CountryId list" ;
  sh:message "{$value} does not start with a country code of the UNECE CountryId list" ;
  sh:pattern ${turtleString(`^(${countries.join('|')})`)} .
`);

  const prefixLines = [...prefixes.entries()].map(([p, iri]) => `@prefix ${p}: <${iri}> .`).join('\n');
  return `# GENERATED by scripts/generate-shapes.ts from contexts/codelists/*.json (UNECE D23B
# release, see contexts/SOURCES.md). Do not edit: change the generator and run it again.
#
# One node shape per code list. A code is admitted in the written forms the interface allows: the
# expanded IRI (terms the D23B context types @vocab, such as tradeAddressCountryId), the string
# "unece:<List>#<code>" (documentTypeCode and transportModeCode, xsd:string in the D23B release and
# @vocab later), and, for unit codes, the bare code ("KGM").

${PREAMBLE}${prefixLines}

${blocks.join('\n')}`;
}

type RangeKind = 'text' | 'dateTimeText' | 'dateTime' | 'boolean' | 'binary' | 'code' | 'listedCode' | 'shaped' | 'object';

interface RangeGroup {
  kind: RangeKind;
  /** The shape the group's predicates target: a hand-written or code-list shape, or a generated one. */
  shape: string;
  predicates: string[];
  ranges: Set<string>;
}

/** Interface terms outside the D23B class data (contexts/dataspace-service.jsonld), with the range
 * they are validated as. */
const SERVICE_RANGES: Record<string, string> = {
  'svc:consignor': 'unece:TradeParty',
  'svc:consignee': 'unece:TradeParty',
};

const KIND_ORDER: RangeKind[] = ['shaped', 'code', 'listedCode', 'dateTimeText', 'dateTime', 'boolean', 'binary', 'object', 'text'];

function classifyRange(predicate: string, range: string): { kind: RangeKind; shape: string } {
  const effective = RANGE_OVERRIDES[predicate] ?? range;
  if (CODE_LIST_RANGES[effective]) return { kind: 'code', shape: CODE_LIST_RANGES[effective] };
  switch (effective) {
    case 'xsd:string':
      return /DateTime$/.test(predicate) ? { kind: 'dateTimeText', shape: 'D23B-DateTimeText' } : { kind: 'text', shape: 'D23B-Text' };
    case 'xsd:dateTime':
      return { kind: 'dateTime', shape: 'D23B-DateTime' };
    case 'xsd:boolean':
      return { kind: 'boolean', shape: 'D23B-Boolean' };
    case 'xsd:base64Binary':
      return { kind: 'binary', shape: 'D23B-Binary' };
  }
  if (/(CodeList|Id)$/.test(effective)) return { kind: 'listedCode', shape: `D23B-${localOf(effective)}` };
  if (CLASS_SHAPES[effective]) return { kind: 'shaped', shape: CLASS_SHAPES[effective] };
  return { kind: 'object', shape: 'D23B-Object' };
}

function generatedConstraints(group: RangeGroup): string[] {
  switch (group.kind) {
    case 'text':
      return ['sh:nodeKind sh:Literal', `sh:message ${turtleString('A D23B text field: the value is a string, not an object')}`];
    case 'dateTimeText':
      return [
        'sh:nodeKind sh:Literal',
        `sh:pattern ${turtleString(ISO_DATE_TIME_PATTERN)}`,
        `sh:message ${turtleString(DATE_TIME_MESSAGE)}`,
      ];
    case 'dateTime':
      return [
        'sh:datatype xsd:dateTime',
        `sh:pattern ${turtleString(ISO_DATE_TIME_PATTERN)}`,
        `sh:message ${turtleString(DATE_TIME_MESSAGE)}`,
      ];
    case 'boolean':
      return ['sh:datatype xsd:boolean', `sh:message ${turtleString('A D23B indicator: {$value} is not true or false')}`];
    case 'binary':
      return ['sh:datatype xsd:base64Binary', `sh:message ${turtleString('A D23B binary field: the value is base64 text')}`];
    case 'listedCode': {
      const list = localOf([...group.ranges][0]!);
      return [
        `sh:pattern ${turtleString(`^(unece:|https://vocabulary\\.uncefact\\.org/)${list}#[^\\s#]+$`)}`,
        `sh:message ${turtleString(`{$value} is not a code of the UNECE ${list} list; write unece:${list}#<code>`)}`,
      ];
    }
    case 'object': {
      return [
        'sh:nodeKind sh:BlankNodeOrIRI',
        `sh:message ${turtleString('A D23B field whose range is a class: the value is an object, not a string')}`,
      ];
    }
    default:
      return [];
  }
}

function targetList(predicates: string[]): string {
  return predicates.length === 1 ? ` ${predicates[0]!}` : `\n    ${predicates.join(',\n    ')}`;
}

/** A comment wrapped at about 100 columns. */
function wrapComment(text: string): string {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > 100 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

function describeRanges(group: RangeGroup): string {
  const names = [...group.ranges].sort().join(', ');
  if (group.kind === 'dateTimeText') return `Values of the fields whose D23B range is ${names} and whose name ends in DateTime.`;
  if (group.kind === 'text') return `Values of the fields whose D23B range is ${names} (other than the *DateTime ones).`;
  if (group.kind === 'object') return `Values of the fields whose D23B range is a class the interface does not describe: ${names}.`;
  return `Values of the fields whose D23B range is ${names}.`;
}

export function renderRangeShapes(): string {
  const dir = join(contextsDir, 'unece-d23b-classes');
  const classes = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJson<ClassFile>(join(dir, f)));
  const ranges = new Map<string, string>();
  for (const data of classes) {
    for (const property of data.objectProperties) {
      const range = property.type ?? 'xsd:string';
      const known = ranges.get(property.uri);
      // The class data gives every predicate one range across classes; refuse to guess if not.
      if (known !== undefined && known !== range) throw new Error(`${property.uri} has ranges ${known} and ${range}`);
      ranges.set(property.uri, range);
    }
  }
  for (const [predicate, range] of Object.entries(SERVICE_RANGES)) ranges.set(predicate, range);

  const groups = new Map<string, RangeGroup>();
  for (const predicate of [...ranges.keys()].sort()) {
    const range = ranges.get(predicate)!;
    const { kind, shape } = classifyRange(predicate, range);
    let group = groups.get(shape);
    if (!group) groups.set(shape, (group = { kind, shape, predicates: [], ranges: new Set() }));
    group.predicates.push(predicate);
    group.ranges.add(RANGE_OVERRIDES[predicate] ?? range);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.shape.localeCompare(b.shape),
  );

  const blocks: string[] = [];
  for (const group of ordered) {
    if (group.kind === 'shaped' || group.kind === 'code') {
      // The shape itself is written elsewhere (shapes/*.ttl, codelists.ttl); only its targets are here.
      blocks.push(`${wrapComment(describeRanges(group))}
dsh:${group.shape} sh:targetObjectsOf${targetList(group.predicates)} .
`);
      continue;
    }
    blocks.push(`${wrapComment(describeRanges(group))}
dsh:${group.shape}
  a sh:NodeShape ;
  sh:targetObjectsOf${targetList(group.predicates)} ;
  ${generatedConstraints(group).join(' ;\n  ')} .
`);
  }
  return `# GENERATED by scripts/generate-shapes.ts from contexts/unece-d23b-classes/*.json (UNECE D23B
# class data, see contexts/SOURCES.md). Do not edit: change the generator and run it again.
#
# Every field of the D23B classes the interface uses, checked against its D23B range wherever it
# appears (the class data gives each field one range across classes): the values of a field are
# the targets (sh:targetObjectsOf) of the shape for its range. Objects get the hand-written shape
# of their class (consignment.ttl, quantities.ttl) or, for classes the interface does not describe,
# must merely be objects; codes must be in their list (codelists.ttl) or, for lists not bundled,
# have the form unece:<List>#<code>; date-times are ISO 8601; indicators are booleans; text is text.
# Fields are optional: only values present are checked.

${PREAMBLE}@prefix svc:   <https://w3id.org/supply-chain-dataspace/ns#> .

${blocks.join('\n')}`;
}

/**
 * Every field whose value can be an object in a conforming payload: the D23B fields whose range is a
 * class (not text, a date, an indicator or a code: an object there breaks the field's own range rule
 * in d23b-ranges.ttl anyway, so whether it counts as a parent cannot change a verdict), the
 * interface's own terms, and every property term of the ActivityStreams context (those carry no
 * range rule). A term the contexts do not define is refused before validation (src/core/activities/parse.ts).
 */
function objectFields(): string[] {
  const fields = new Set<string>();
  for (const [predicate, range] of d23bRanges()) {
    if (classifyRange(predicate, range).kind === 'shaped' || classifyRange(predicate, range).kind === 'object') fields.add(predicate);
  }
  for (const file of ['dataspace-service.jsonld', 'activitystreams.jsonld']) {
    const context = readJson<{ '@context': Record<string, unknown> }>(join(contextsDir, file))['@context'];
    const prefixes = new Map<string, string>();
    for (const [term, definition] of Object.entries(context)) {
      if (typeof definition === 'string' && /^https?:.*[/#]$/.test(definition)) prefixes.set(term, definition);
    }
    for (const [term, definition] of Object.entries(context)) {
      if (term.startsWith('@') || prefixes.has(term)) continue;
      const id = typeof definition === 'string' ? definition : (definition as { '@id'?: unknown } | null)?.['@id'];
      if (typeof id !== 'string' || id.startsWith('@')) continue;
      const colon = id.indexOf(':');
      const namespace = colon > 0 ? prefixes.get(id.slice(0, colon)) : undefined;
      const iri = namespace ? namespace + id.slice(colon + 1) : id;
      // Classes (capitalised terms without a value type) name types, not fields.
      const isClass =
        /^[A-Z]/.test(term) && (typeof definition === 'string' || (definition as Record<string, unknown>)['@type'] === undefined);
      if (/^https?:/.test(iri) && !isClass) fields.add(turtleIri(iri));
    }
  }
  // The activity's own links first: the search stops at the first field that holds.
  const first = ['as:object', 'as:target', 'as:actor'];
  return [...first, ...[...fields].filter((f) => !first.includes(f)).sort()];
}

const SVC = 'https://w3id.org/supply-chain-dataspace/ns#';
const AS = 'https://www.w3.org/ns/activitystreams#';

function turtleIri(iri: string): string {
  for (const [prefix, namespace] of [
    ['unece', UNECE],
    ['svc', SVC],
    ['as', AS],
  ] as const) {
    if (iri.startsWith(namespace) && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(iri.slice(namespace.length)))
      return `${prefix}:${iri.slice(namespace.length)}`;
  }
  return `<${iri}>`;
}

function fieldsOfClass(file: string): string[] {
  return readJson<ClassFile>(join(contextsDir, 'unece-d23b-classes', file)).objectProperties.map((p) => p.uri);
}

/** The fields whose D23B range is one of `classes`, as Turtle names. */
function fieldsWithRange(...classes: string[]): string[] {
  return [...d23bRanges()]
    .filter(([, range]) => classes.includes(range))
    .map(([predicate]) => predicate)
    .sort();
}

/**
 * shapes/payload-parents.ttl: what payload-roots.ttl needs from the data. "Has a parent" (is the value
 * of some field) in two sizes: the fields whose range is the object's own class, checked first
 * because they are few, and every field a payload can carry, checked only when a rule has failed.
 * And the fields that make an untyped object a candidate for the bare-consignment rule.
 */
export function renderParentShapes(): string {
  // One inverse property shape per field, joined by sh:or: engines differ on an alternative of
  // inverse paths (shacl-engine 1.1 reads neither ^(a|b) nor (^a|^b)), and the first field that
  // holds ends the search.
  const parent = (name: string, label: string, predicates: string[]): string => {
    const members = predicates.map((p) => ({ p, shape: `dsh:${name}-${p.replace(/^.*[:/#]/, '').replace(/[^A-Za-z0-9_-]/g, '_')}` }));
    const seen = new Map<string, number>();
    for (const m of members) {
      const n = (seen.get(m.shape) ?? 0) + 1;
      seen.set(m.shape, n);
      if (n > 1) m.shape = `${m.shape}-${n}`;
    }
    return `dsh:${name}
  a sh:NodeShape ;
  rdfs:label ${turtleString(label)} ;
  sh:or (
    ${members.map((m) => m.shape).join('\n    ')}
  ) .
${members.map((m) => `${m.shape} a sh:PropertyShape ; sh:path [ sh:inversePath ${m.p} ] ; sh:minCount 1 .`).join('\n')}
`;
  };
  const all = objectFields();
  // Only the fields no other D23B class has: identifier, globalId, originCountry, the weights ... are
  // also on parties, items and equipment, and would make every such nested object a candidate.
  const elsewhere = new Set(
    readdirSync(join(contextsDir, 'unece-d23b-classes'))
      .filter((f) => f.endsWith('.json') && f !== 'consignment.json')
      .flatMap((f) => fieldsOfClass(f)),
  );
  const consignmentFields = [
    ...new Set([...fieldsOfClass('consignment.json').filter((f) => !elsewhere.has(f)), ...Object.keys(SERVICE_RANGES)]),
  ].sort();
  return `# GENERATED by scripts/generate-shapes.ts from the D23B class data and the bundled contexts. Do not
# edit: change the generator and run it again (npm run generate-shapes).
#
# Conditions for the payload-root rules of payload-roots.ttl. SHACL has no "any field" path, so
# "this object is the value of a field" is an inverse path over a list of fields.

${PREAMBLE}@prefix svc:   <${SVC}> .
@prefix as:    <${AS}> .

${parent('HasDocumentParent', 'The value of a field whose D23B range is Document, or the object of an activity', ['as:object', ...fieldsWithRange('unece:Document')])}
${parent('HasEventParent', 'The value of a field whose D23B range is SupplyChainEvent, or the object of an activity', ['as:object', ...fieldsWithRange('unece:SupplyChainEvent')])}
${parent('HasConsignmentParent', 'The value of a field whose D23B range is Consignment, or the object or target of an activity', ['as:object', 'as:target', ...fieldsWithRange('unece:Consignment')])}
${parent('HasParent', "The value of any field that can hold an object (D23B fields whose range is a class, the interface's and the ActivityStreams terms)", all)}
# An untyped object is a candidate for the bare-consignment rule when it has a field that, of the D23B
# classes, only Consignment has (or the interface's consignor, consignee).
dsh:BareConsignmentRule sh:targetSubjectsOf${targetList(consignmentFields)} .
`;
}

let rangesCache: Map<string, string> | undefined;

/** Each D23B field (as unece:<name>) and its range, with the interface's own terms. */
function d23bRanges(): Map<string, string> {
  if (rangesCache) return rangesCache;
  const dir = join(contextsDir, 'unece-d23b-classes');
  const ranges = new Map<string, string>();
  for (const f of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    for (const property of readJson<ClassFile>(join(dir, f)).objectProperties) ranges.set(property.uri, property.type ?? 'xsd:string');
  }
  for (const [predicate, range] of Object.entries(SERVICE_RANGES)) ranges.set(predicate, range);
  return (rangesCache = ranges);
}

export const GENERATED_SHAPE_FILES = {
  'codelists.ttl': renderCodelistShapes,
  'd23b-ranges.ttl': renderRangeShapes,
  'payload-parents.ttl': renderParentShapes,
  'event-codes.ttl': renderEventCodeShapes,
} as const;

function main(): void {
  for (const [file, render] of Object.entries(GENERATED_SHAPE_FILES)) {
    writeFileSync(join(shapesDir, file), render());
    console.log(`wrote shapes/${file}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
