import { AS_CONTEXT, D23B, newGlobalId, type Json } from './payloads.js';

/*
 * Consignments in the forms of the pilots' payloads described in ../shared/payloads/real-payloads.md
 * (A: a TWIN provider node's DPI consignment; B′: an ISN signal wrapped as a Create; B″: the ISN
 * "ACME" variant; E: the TWIN dataspace test app), written in our own words with invented values:
 * the same field paths and value forms. Only their ids are ours: globalIds are urn:uuid (spec 2.4),
 * refused otherwise (test/fixtures/pilots/provider-non-uuid-globalid.json).
 */
const EORI = 'https://ref.gs1.org/voc/OrganizationID_Type-EORI';
const GS1_UN_LOCODE = 'https://ref.gs1.org/voc/LocationID_Type-UN_LOCODE';
export const DID_TYPE = 'https://ref.gs1.org/voc/OrganizationID_Type-DID';

const ids = (prefix: string): Json => ({ identifier: `${prefix}-${newGlobalId().slice(-10)}`, globalId: newGlobalId() });

/** A: EORI value objects under `identifier`, a number quantity, a boolean, GS1 UN/LOCODE event locations. */
export function pilotA(): Json {
  return {
    '@context': D23B,
    type: 'Consignment',
    ...ids('DPI'),
    exporterParty: { type: 'TradeParty', name: 'Mazur Drob Sp. z o.o.', identifier: { '@type': EORI, '@value': 'PL5550001234' } },
    importerParty: { type: 'TradeParty', name: 'Tidewater Foods Ltd', identifier: { '@type': EORI, '@value': 'GB555000123000' } },
    originCountry: { type: 'Country', countryId: 'unece:CountryId#PL' },
    destinationCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
    includedConsignmentItem: [{ type: 'ConsignmentItem', exportTypeCode: '1602329090' }],
    // Pilot A also sends type: "QuantityType", a class D23B does not define: refused 422 (pilot-read-back.test.ts).
    packageQuantity: { 'unece:QuantityTypeValue': 25 },
    weightUnitNetWeightMeasure: [
      { 'unece:WeightUnitMeasureTypeValue': '19500', 'unece:WeightUnitMeasureTypeCode': 'unece:WeightUnitMeasureCode#KGM' },
    ],
    utilizedTransportEquipment: [
      {
        type: 'LogisticsTransportEquipment',
        affixedSeal: [{ type: 'Seal', identifier: 'SEAL-4471' }],
        specifiedTransportMeans: [
          {
            type: 'LogisticsTransportMeans',
            identifier: 'PO12345',
            transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#3103',
            driverAccompaniedIndicator: true,
          },
        ],
      },
    ],
    atDepartureTransportMovement: {
      type: 'TransportMovement',
      transportModeCode: 'unece:TransportModeCodeList#1',
      carrierParty: { type: 'TradeParty', name: 'Narrow Sea Line' },
      usedTransportMeans: { identifier: 'Amber Gull', transportMeansTypeCode: 'unece:TransportMeansTypeCodeList#1512' },
      departureEvent: [
        {
          occurrenceLogisticsLocation: { type: 'LogisticsLocation', identifier: { '@type': GS1_UN_LOCODE, '@value': 'NLRTM' } },
          // Pilot A sends 2026-05-8T19:00:00Z (a one-digit day): refused 422 naming the field (pilot-read-back.test.ts).
          scheduledOccurrenceDateTime: '2026-05-08T19:00:00Z',
        },
      ],
    },
    atArrivalTransportMovement: {
      type: 'TransportMovement',
      transportModeCode: 'unece:TransportModeCodeList#1',
      arrivalEvent: [
        {
          occurrenceLogisticsLocation: { type: 'LogisticsLocation', identifier: { '@type': GS1_UN_LOCODE, '@value': 'GBFXT' } },
          scheduledOccurrenceDateTime: '2026-05-09T07:00:00Z',
        },
      ],
    },
  };
}

/** B′ as sent: the ISN Create, its actor without `@context`, the load with a nested consignment. */
export function pilotBPrimeActivity(did: string): Json {
  return {
    '@context': AS_CONTEXT,
    type: 'Create',
    actor: { type: 'TradeParty', registeredId: { '@type': DID_TYPE, '@value': did } },
    object: pilotBPrime(),
  };
}

/** B′'s object: parties by EORI registeredId, each with its own @context, in a nested consignment. */
export function pilotBPrime(): Json {
  const party = (value: string, role: string) => ({
    '@context': D23B,
    type: 'TradeParty',
    registeredId: { '@type': EORI, '@value': value },
    role,
  });
  return {
    '@context': D23B,
    type: 'Consignment',
    ...ids('ISN'),
    atDepartureTransportMovement: {
      transportModeCode: 'unece:TransportModeCodeList#3',
      departureEvent: [{ occurrenceLogisticsLocation: { type: 'LogisticsLocation', name: 'Calais' } }],
    },
    atArrivalTransportMovement: {
      transportModeCode: 'unece:TransportModeCodeList#3',
      arrivalEvent: [{ occurrenceLogisticsLocation: { type: 'LogisticsLocation', name: 'Dover' } }],
    },
    includedConsignment: [
      {
        type: 'Consignment',
        identifier: 'ISN-PART-1',
        consigneeParty: party('FR555000123000', 'Consignee'),
        consignorParty: party('PL5550009876', 'Consignor'),
        // B′ sends goodsTypeCode "1602": goods types have no bundled list, so only the unece: form is taken.
        includedConsignmentItem: [{ type: 'ConsignmentItem', goodsTypeCode: 'unece:GoodsTypeCodeList#1602', information: 'Poultry wings' }],
      },
    ],
    utilizedTransportEquipment: [{ type: 'LogisticsTransportEquipment', identifier: 'XY12ABC' }],
  };
}

/** B″: single-object events, plain-string location and party identifiers, located loading places. */
export function pilotBDoublePrime(): Json {
  return {
    '@context': D23B,
    type: 'Consignment',
    ...ids('ACME'),
    atDepartureTransportMovement: {
      transportModeCode: 'unece:TransportModeCodeList#3',
      departureEvent: { occurrenceLogisticsLocation: { name: 'Calais', identifier: 'FRCQF' } },
    },
    atArrivalTransportMovement: {
      transportModeCode: 'unece:TransportModeCodeList#3',
      arrivalEvent: { occurrenceLogisticsLocation: { name: 'Dover', identifier: 'GBDVR' } },
    },
    consignorParty: { type: 'TradeParty', identifier: 'PL5550004321' },
    includedConsignment: [
      {
        type: 'Consignment',
        identifier: 'ACME-PART-1',
        loadingLocation: {
          name: 'Poznan depot',
          physicalGeographicalCoordinate: { latitudeMeasure: 52.40487, longitudeMeasure: 16.93171 },
          postalAddress: { type: 'TradeAddress', streetName: 'Magazynowa 7', tradeAddressCountryId: 'unece:CountryId#PL' },
        },
        unloadingLocation: {
          name: 'Ashford inland site',
          postalAddress: { type: 'TradeAddress', tradeAddressCountryId: 'unece:CountryId#GB' },
        },
        specifiedTransportMovement: {
          transportModeCode: 'unece:TransportModeCodeList#3',
          loadingEvent: { scheduledOccurrenceDateTime: '2026-09-30T06:00:00Z' },
          unloadingEvent: { scheduledOccurrenceDateTime: '2026-10-01T09:30:00Z' },
        },
      },
    ],
  };
}

/** E: locations named by id `unece:LOCODE#…` with a name and a type. */
export function pilotE(): Json {
  return {
    '@context': D23B,
    type: 'Consignment',
    id: `urn:ucr:24PLP${newGlobalId().slice(-12).toUpperCase()}`,
    ...ids('M-Test'),
    destinationCountry: { type: 'Country', countryId: 'unece:CountryId#GB' },
    loadingLocation: { type: 'LogisticsLocation', id: 'unece:LOCODE#NLRTM', name: 'Rotterdam' },
    unloadingLocation: { id: 'unece:LOCODE#GBFXT', name: 'Felixstowe' },
  };
}
