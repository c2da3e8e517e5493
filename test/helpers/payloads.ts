import { randomUUID } from 'node:crypto';

export const D23B = 'https://vocabulary.uncefact.org/unece-context-D23B.jsonld';
export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const DID_TYPE = 'https://ref.gs1.org/voc/OrganizationID_Type-DID';

export type Json = Record<string, any>;

export const newGlobalId = (): string => `urn:uuid:${randomUUID()}`;

export function actor(did: string): Json {
  return { '@context': D23B, type: 'TradeParty', registeredId: { '@type': DID_TYPE, '@value': did } };
}

/** A rich consignment shaped like a real border-trade payload, routed Felixstowe → Rotterdam by default. */
export function consignment(overrides: Json = {}): Json {
  return {
    '@context': D23B,
    type: 'Consignment',
    identifier: `REF-${randomUUID().slice(0, 8)}`,
    globalId: newGlobalId(),
    summaryDescription: 'Machine parts',
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
    carrierAssignedId: 'BKG-001',
    loadingBaseportLocation: { type: 'LogisticsLocation', name: 'Felixstowe', UNLocode: 'GBFXT' },
    unloadingBaseportLocation: { type: 'LogisticsLocation', name: 'Rotterdam', UNLocode: 'NLRTM' },
    mainCarriageTransportMovement: { type: 'TransportMovement', transportModeCode: 'unece:TransportModeCodeList#1' },
    utilizedTransportEquipment: [
      {
        type: 'LogisticsTransportEquipment',
        identifier: 'MSKU1234567',
        specifiedTransportMeans: { type: 'LogisticsTransportMeans', transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#3103' },
      },
    ],
    consignmentItemQuantity: { 'unece:QuantityTypeValue': '12' },
    includedConsignmentItem: [
      {
        type: 'ConsignmentItem',
        goodsTypeCode: 'unece:GoodsTypeCodeList#8483',
        information: 'Gearboxes',
        originCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
      },
    ],
    ...overrides,
  };
}

export function activity(type: 'Create' | 'Update' | 'Add', did: string, object: Json, target?: Json): Json {
  const a: Json = { '@context': [AS_CONTEXT], type, actor: actor(did), object };
  if (target) a.target = target;
  return a;
}

export function target(c: Json): Json {
  return { '@context': D23B, type: 'Consignment', globalId: c.globalId, identifier: c.identifier };
}

export function event(typeCode: string, overrides: Json = {}): Json {
  return { '@context': D23B, type: 'SupplyChainEvent', typeCode, occurrenceDateTime: '2026-11-20T10:00:00Z', ...overrides };
}

export function document(identifier: string, overrides: Json = {}): Json {
  return {
    '@context': D23B,
    type: 'Document',
    documentTypeCode: 'unece:DocumentCodeList#380',
    identifier,
    issueDateTime: '2026-11-20T09:00:00Z',
    // Inline, so the node keeps the file without a network: an Add whose file cannot be fetched fails.
    uRIId: 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IK',
    versionId: '1',
    ...overrides,
  };
}
