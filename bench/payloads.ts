/**
 * The payloads every system in the benchmark receives: a rich consignment shaped like a real
 * border-trade payload (parties, route, transport, equipment, an item), an event and a document.
 * Consignment `n` has a globalId and identifier derived from `n`, so a seeder and a load client in
 * different processes agree on ids without passing lists around.
 */
import { cycled } from './pick.js';

export const D23B = 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld';
export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const DID_TYPE = 'https://ref.gs1.org/voc/OrganizationID_Type-DID';

type Json = Record<string, unknown>;

/** Tags that keep the ids of each benchmark phase's consignments apart (see uuidFor). */
export const RUN = { seed: 1, pool: 2, writes: 3, ceiling: 4, css: 5, cssPool: 6, validations: 9, firstRead: 12 } as const;

const ROUTES = [
  ['GBFXT', 'Felixstowe', 'NLRTM', 'Rotterdam'],
  ['GBSOU', 'Southampton', 'FRLEH', 'Le Havre'],
  ['GBDVR', 'Dover', 'FRCQF', 'Calais'],
] as const;

/** A v4-shaped UUID whose last group is `n` and whose second group tells runs apart. */
export function uuidFor(n: number, run = 0): string {
  return `00000000-${(run & 0xffff).toString(16).padStart(4, '0')}-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function globalIdFor(n: number, run = 0): string {
  return `urn:uuid:${uuidFor(n, run)}`;
}

export function identifierFor(n: number, run = 0): string {
  return `BENCH-${run}-${n}`;
}

export function consignment(n: number, run = 0): Json {
  const [fromCode, fromName, toCode, toName] = cycled(ROUTES, n);
  return {
    '@context': D23B,
    type: 'Consignment',
    identifier: identifierFor(n, run),
    globalId: globalIdFor(n, run),
    summaryDescription: `Machine parts, lot ${n}`,
    consignor: {
      type: 'TradeParty',
      name: 'Acme Exports Ltd',
      postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#GB' },
    },
    consignee: {
      type: 'TradeParty',
      name: 'Beta Imports BV',
      postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#NL' },
    },
    carrierParty: { type: 'TradeParty', name: 'North Sea Ferries' },
    carrierAssignedId: `BKG-${n}`,
    loadingBaseportLocation: { type: 'LogisticsLocation', name: fromName, UNLocode: fromCode },
    unloadingBaseportLocation: { type: 'LogisticsLocation', name: toName, UNLocode: toCode },
    mainCarriageTransportMovement: { type: 'TransportMovement', transportModeCode: 'unece:TransportModeCodeList#1' },
    utilizedTransportEquipment: [
      {
        type: 'LogisticsTransportEquipment',
        identifier: `MSKU${String(n).padStart(7, '0')}`,
        specifiedTransportMeans: { type: 'LogisticsTransportMeans', transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#3103' },
      },
    ],
    consignmentItemQuantity: { 'unece:QuantityTypeValue': String(1 + (n % 40)) },
    includedConsignmentItem: [
      {
        type: 'ConsignmentItem',
        goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
        information: 'Gearboxes',
        originCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
      },
    ],
  };
}

export function actor(did: string): Json {
  return { '@context': D23B, type: 'TradeParty', registeredId: { '@type': DID_TYPE, '@value': did } };
}

export function target(n: number, run = 0): Json {
  return { '@context': D23B, type: 'Consignment', globalId: globalIdFor(n, run), identifier: identifierFor(n, run) };
}

export function event(typeCode = 'svc:preNotification'): Json {
  return {
    '@context': D23B,
    type: 'SupplyChainEvent',
    typeCode,
    occurrenceDateTime: '2026-11-20T10:00:00Z',
    occurrenceLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' },
  };
}

/** A document whose file is `<filesUrl>/<identifier>.pdf` (bench/file-server.ts serves it). */
export function document(identifier: string, filesUrl: string): Json {
  return {
    '@context': D23B,
    type: 'Document',
    documentTypeCode: 'unece:DocumentCodeList#380',
    identifier,
    issueDateTime: '2026-11-20T09:00:00Z',
    uRIId: `${filesUrl}/${identifier}.pdf`,
    versionId: '1',
  };
}

export function activity(type: 'Create' | 'Update' | 'Add', did: string, object: Json, targetJson?: Json): Json {
  const a: Json = { '@context': [AS_CONTEXT], type, actor: actor(did), object };
  if (targetJson) a.target = targetJson;
  return a;
}
