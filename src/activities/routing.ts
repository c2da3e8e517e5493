import type { Term } from '@rdfjs/types';
import type { QuadIndex } from '../rdf/quad-index.js';
import { svc, unece } from '../rdf/namespaces.js';

const BASEPORTS = ['loadingBaseportLocation', 'unloadingBaseportLocation'].map(unece);
const MOVEMENTS = [
  'mainCarriageTransportMovement',
  'preCarriageTransportMovement',
  'onCarriageTransportMovement',
  'atDepartureTransportMovement',
  'atArrivalTransportMovement',
  'borderCrossingTransportMovement',
].map(unece);
const MOVEMENT_EVENTS = ['departureEvent', 'arrivalEvent'].map(unece);
const EVENT_LOCATIONS = ['occurrenceLogisticsLocation', 'occurrenceLocation'].map(unece);

function locodes(index: QuadIndex, location: Term): string[] {
  return index
    .objects(location, svc('UNLocode'))
    .filter((t) => t.termType === 'Literal')
    .map((t) => t.value.toUpperCase());
}

/**
 * The UN/LOCODEs a consignment is routed through: its loading and unloading baseports, and the
 * departure and arrival locations of its transport movements. Policies for location operators and
 * carrier-booking notifications both use this one rule.
 */
export function routeLocations(index: QuadIndex, consignment: Term): string[] {
  const found = new Set<string>();
  for (const p of BASEPORTS) for (const location of index.objects(consignment, p)) locodes(index, location).forEach((c) => found.add(c));
  for (const p of MOVEMENTS) {
    for (const movement of index.objects(consignment, p)) {
      for (const e of MOVEMENT_EVENTS) {
        for (const event of index.objects(movement, e)) {
          for (const l of EVENT_LOCATIONS)
            for (const location of index.objects(event, l)) locodes(index, location).forEach((c) => found.add(c));
        }
      }
    }
  }
  return [...found].sort();
}
