import type { Term } from '@rdfjs/types';
import type { QuadIndex } from '../rdf/quad-index.js';
import { svc, unece } from '../rdf/namespaces.js';
import { LOCODE_PATTERN } from '../registry/seed.js';

const BASEPORTS = ['loadingBaseportLocation', 'unloadingBaseportLocation', 'loadingLocation', 'unloadingLocation'].map(unece);
const MOVEMENTS = [
  'mainCarriageTransportMovement',
  'preCarriageTransportMovement',
  'onCarriageTransportMovement',
  'atDepartureTransportMovement',
  'atArrivalTransportMovement',
  'borderCrossingTransportMovement',
  'specifiedTransportMovement',
].map(unece);
const MOVEMENT_EVENTS = ['departureEvent', 'arrivalEvent', 'loadingEvent', 'unloadingEvent'].map(unece);
const EVENT_LOCATIONS = ['occurrenceLogisticsLocation', 'occurrenceLocation'].map(unece);
const INCLUDED = unece('includedConsignment');
const IDENTIFIER = unece('identifier');
/** GS1's identifier type for a UN/LOCODE (GS1 Web Vocabulary), as pilots type location identifiers. */
export const GS1_UN_LOCODE = 'https://ref.gs1.org/voc/LocationID_Type-UN_LOCODE';
/** A location named by its UN/LOCODE: `unece:LOCODE#NLRTM` (TWIN's form) or the UN/LOCODE vocabulary's IRI. */
const LOCODE_IRIS = [unece('LOCODE#'), unece('unlocode#')];
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/**
 * The UN/LOCODEs one location names, in every form pilots send (docs/policies.md, "Route forms"):
 * `UNLocode` (as written, upper-cased), an `identifier` typed as a GS1 UN/LOCODE (any case), a plain-string
 * `identifier` that is a UN/LOCODE as written (upper case: "Dover" is a place name, not DOVER), and the
 * location's own `id` in the LOCODE form. A GS1 identifier of another type (an IATA code) names none.
 */
export function locationCodes(index: QuadIndex, location: Term): string[] {
  const codes: string[] = [];
  const add = (code: string) => LOCODE_PATTERN.test(code) && codes.push(code);
  if (location.termType === 'NamedNode') {
    const prefix = LOCODE_IRIS.find((p) => location.value.startsWith(p));
    if (prefix) add(location.value.slice(prefix.length).toUpperCase());
  }
  // UNLocode is the spec's own field: taken as written, upper-cased, as routes always were.
  for (const t of index.objects(location, svc('UNLocode'))) if (t.termType === 'Literal') codes.push(t.value.toUpperCase());
  for (const t of index.objects(location, IDENTIFIER)) {
    if (t.termType !== 'Literal') continue;
    if (t.datatype.value === GS1_UN_LOCODE) add(t.value.trim().toUpperCase());
    else if (t.datatype.value === XSD_STRING) add(t.value.trim());
  }
  return codes;
}

/**
 * The UN/LOCODEs a consignment is routed through: its loading and unloading (baseport) locations, the
 * locations of the events of its transport movements, and the same of the consignments it includes.
 * Policies for location operators, carrier-booking notifications, the `location` filter and the change
 * feed all read this one rule (as the record's svc:routeLocation values).
 */
export function routeLocations(index: QuadIndex, consignment: Term): string[] {
  const found = new Set<string>();
  const add = (location: Term) => locationCodes(index, location).forEach((c) => found.add(c));
  const seen = new Set<string>();
  const pending = [consignment];
  for (let c = pending.pop(); c !== undefined; c = pending.pop()) {
    if (seen.has(c.value)) continue;
    seen.add(c.value);
    for (const p of BASEPORTS) index.objects(c, p).forEach(add);
    for (const p of MOVEMENTS)
      for (const movement of index.objects(c, p))
        for (const e of MOVEMENT_EVENTS)
          for (const event of index.objects(movement, e)) for (const l of EVENT_LOCATIONS) index.objects(event, l).forEach(add);
    pending.push(...index.objects(c, INCLUDED));
  }
  return [...found].sort();
}
